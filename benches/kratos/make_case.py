#!/usr/bin/env python3
"""Write a Kratos case of the friction blocks (validation/friction_blocks).

    python3 make_case.py CASE [--out DIR] [--verify-vtu FRAME.vtu]
                              [--mass consistent|lumped] [--search-factor F]
                              [--dynamic-search] [--set KEY.PATH=JSON ...]
                              [--emcontact-toml FILE]

CASE is one of the names in CASES (coarse_mu02, coarse_mu08, fine_mu02,
fine_mu08).  The directory DIR (default cases/CASE next to this script)
receives

* blocks.mdpa: the same nodes (same order, 1-based ids) and hex8 elements
  as emcontact's generator, TotalLagrangianElement3D8N; sub model parts
  Base, Cube, BaseBottom (fixed), ContactMaster (base top, quad4 faces),
  ContactSlave (cube bottom), and the cube's initial VELOCITY as NodalData;
* materials.json: HyperElastic3DLaw (compressible neo-Hookean, the same W
  as src/material/neo_hookean.rs), E = 1e4, nu = 0, rho = 100;
* ProjectParameters.json: implicit dynamics, Newmark (beta = 1/4, gamma =
  1/2), dt = 0.1 to t = 1.5, mortar ALM frictional contact
  (ALMContactFrictional), slave = cube bottom, master = base top, mu.

--verify-vtu compares the nodes and hex8 connectivity with a frame that
`emcontact run` wrote for the same toml and stops (exit 1) on a mismatch.
"""
import argparse
import json
import os
import sys

import mesh

DT, END = 0.1, 1.5
E, NU, RHO = 1.0e4, 0.0, 100.0
V0 = (0.0, 1.5, -1.0)

# name: (base divisions, cube divisions, mu, emcontact toml of the same model)
CASES = {
    "coarse_mu02": ((8, 8, 4), (4, 4, 4), 0.2, "validation/friction_blocks/slip_mu02.toml"),
    "coarse_mu08": ((8, 8, 4), (4, 4, 4), 0.8, "validation/friction_blocks/stick_mu08.toml"),
    "fine_mu02": ((16, 16, 8), (8, 8, 8), 0.2, "validation/friction_blocks/slip_mu02.toml"),
    "fine_mu08": ((16, 16, 8), (8, 8, 8), 0.8, "validation/friction_blocks/stick_mu08.toml"),
}

# Per-case ProjectParameters overrides (see README, "The fine mesh"): with
# Kratos' default search (in_radius_with_obb) no contact pair is ever created
# on the fine mesh and the cube passes through the base; plain in_radius
# finds the pairs.
CASE_OVERRIDES = {
    "fine_mu02": ['processes.contact_process_list.0.Parameters.search_parameters.type_search="in_radius"'],
    "fine_mu08": ['processes.contact_process_list.0.Parameters.search_parameters.type_search="in_radius"'],
}

HERE = os.path.dirname(os.path.abspath(__file__))


def _block(lines, head, rows):
    lines.append(f"Begin {head}")
    lines.extend(rows)
    lines.append(f"End {head.split()[0]}")
    lines.append("")


def _sub_model_part(lines, name, nodes, elements=(), conditions=()):
    lines.append(f"Begin SubModelPart {name}")
    for kind, ids in (("Nodes", nodes), ("Elements", elements), ("Conditions", conditions)):
        lines.append(f"    Begin SubModelPart{kind}")
        lines.extend(f"        {i}" for i in ids)
        lines.append(f"    End SubModelPart{kind}")
    lines.append("End SubModelPart")
    lines.append("")


def mdpa_text(b):
    """The .mdpa of Blocks b (Kratos ids are 1-based: id = index + 1)."""
    out = ["Begin ModelPartData", "End ModelPartData", ""]
    for p in (0, 1, 2):
        out += [f"Begin Properties {p}", "End Properties", ""]
    _block(out, "Nodes", [f"{i + 1} {float(x)!r} {float(y)!r} {float(z)!r}" for i, (x, y, z) in enumerate(b.nodes)])
    eid = 1
    rows = []
    for prop, hexes in ((1, b.base_hexes), (2, b.cube_hexes)):
        for h in hexes:
            rows.append(f"{eid} {prop} " + " ".join(str(n + 1) for n in h))
            eid += 1
    _block(out, "Elements TotalLagrangianElement3D8N", rows)
    cid, rows, cond_ids = 1, [], {}
    for name, prop, quads in (("ContactMaster", 1, b.base_top), ("ContactSlave", 2, b.cube_bottom)):
        cond_ids[name] = list(range(cid, cid + len(quads)))
        for q in quads:
            rows.append(f"{cid} {prop} " + " ".join(str(n + 1) for n in q))
            cid += 1
    _block(out, "Conditions SurfaceCondition3D4N", rows)
    cube_nodes = range(b.offset + 1, len(b.nodes) + 1)
    for comp, v in zip("XYZ", V0):
        if v != 0.0:
            _block(out, f"NodalData VELOCITY_{comp}", [f"{i} 0 {v!r}" for i in cube_nodes])
    n_base_hex = len(b.base_hexes)
    bottom = sorted({n + 1 for q in b.base_bottom for n in q})
    _sub_model_part(out, "Base", range(1, b.offset + 1), range(1, n_base_hex + 1))
    _sub_model_part(out, "Cube", cube_nodes, range(n_base_hex + 1, eid))
    _sub_model_part(out, "BaseBottom", bottom)
    for name, quads in (("ContactMaster", b.base_top), ("ContactSlave", b.cube_bottom)):
        nodes = sorted({n + 1 for q in quads for n in q})
        _sub_model_part(out, name, nodes, conditions=cond_ids[name])
    return "\n".join(out)


def materials(mass):
    props = []
    for i, part in ((1, "Base"), (2, "Cube")):
        variables = {"DENSITY": RHO, "YOUNG_MODULUS": E, "POISSON_RATIO": NU}
        if mass == "lumped":
            variables["COMPUTE_LUMPED_MASS_MATRIX"] = True
        props.append({
            "model_part_name": f"Structure.{part}",
            "properties_id": i,
            "Material": {"constitutive_law": {"name": "HyperElastic3DLaw"}, "Variables": variables, "Tables": {}},
        })
    return {"properties": props}


def project_parameters(name, mu, search_factor, dynamic_search=False):
    fixed = {
        "python_module": "assign_vector_variable_process",
        "kratos_module": "KratosMultiphysics",
        "Parameters": {
            "model_part_name": "Structure.BaseBottom",
            "variable_name": "DISPLACEMENT",
            "constrained": [True, True, True],
            "value": [0.0, 0.0, 0.0],
            "interval": [0.0, "End"],
        },
    }
    contact = {
        "python_module": "alm_contact_process",
        "kratos_module": "KratosMultiphysics.ContactStructuralMechanicsApplication",
        "process_name": "ALMContactProcess",
        "Parameters": {
            "model_part_name": "Structure",
            "contact_model_part": {"0": ["ContactSlave", "ContactMaster"]},
            "assume_master_slave": {"0": ["ContactSlave"]},
            "friction_coefficients": {"0": mu},
            "contact_type": "Frictional",
            "search_parameters": {"search_factor": search_factor, "dynamic_search": dynamic_search},
        },
    }
    return {
        "problem_data": {
            "problem_name": name,
            "parallel_type": "OpenMP",
            "echo_level": 0,
            "start_time": 0.0,
            "end_time": END,
        },
        "solver_settings": {
            "solver_type": "Dynamic",
            "time_integration_method": "implicit",
            "scheme_type": "newmark",
            "newmark_beta": 0.25,
            "model_part_name": "Structure",
            "domain_size": 3,
            "echo_level": 0,
            "analysis_type": "non_linear",
            "model_import_settings": {"input_type": "mdpa", "input_filename": "blocks"},
            "material_import_settings": {"materials_filename": "materials.json"},
            "time_stepping": {"time_step": DT},
            "convergence_criterion": "contact_residual_criterion",
            "displacement_relative_tolerance": 1.0e-4,
            "displacement_absolute_tolerance": 1.0e-9,
            "residual_relative_tolerance": 1.0e-4,
            "residual_absolute_tolerance": 1.0e-9,
            "max_iteration": 30,
            "buffer_size": 3,
            "linear_solver_settings": {"solver_type": "sparse_lu"},
            "contact_settings": {"mortar_type": "ALMContactFrictional", "fancy_convergence_criterion": False},
        },
        "processes": {
            "constraints_process_list": [fixed],
            "contact_process_list": [contact],
            "loads_process_list": [],
            "list_other_processes": [],
        },
        "output_processes": {},
    }


def apply_override(params, assignment):
    """Set one key of the parameters: "a.b.0.c=JSON" (list indices as numbers)."""
    path, sep, value = assignment.partition("=")
    if not sep:
        raise SystemExit(f"make_case: --set {assignment!r}: expected KEY.PATH=JSON_VALUE")
    keys = path.split(".")
    node = params
    for k in keys[:-1]:
        node = node[int(k)] if isinstance(node, list) else node.setdefault(k, {})
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = value  # a bare string
    last = keys[-1]
    if isinstance(node, list):
        node[int(last)] = parsed
    else:
        node[last] = parsed


def write_case(case, out, mass="consistent", search_factor=3.5, vtu=None, dynamic_search=False, overrides=()):
    base_div, cube_div, mu, _ = CASES[case]
    b = mesh.Blocks(base_div, cube_div)
    if not b.outward_normals_ok():
        raise SystemExit("make_case: contact faces are not oriented outward")
    if vtu:
        err = mesh.verify_vtu(b, vtu)
        print(f"{vtu}: {len(b.nodes)} nodes and {len(b.hexes())} hex8 match, max |dx| = {err:.1e}")
        if err > 1e-12:
            raise SystemExit(f"make_case: node coordinates differ from {vtu} by {err}")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "blocks.mdpa"), "w") as f:
        f.write(mdpa_text(b))
    with open(os.path.join(out, "materials.json"), "w") as f:
        json.dump(materials(mass), f, indent=4)
    params = project_parameters(f"blocks_{case}", mu, search_factor, dynamic_search)
    for o in list(CASE_OVERRIDES.get(case, [])) + list(overrides):
        apply_override(params, o)
    with open(os.path.join(out, "ProjectParameters.json"), "w") as f:
        json.dump(params, f, indent=4)
    return b


def emcontact_toml(case, repo):
    """Our input for CASE: the validation toml with the case's divisions."""
    base_div, cube_div, _, toml = CASES[case]
    with open(os.path.join(repo, toml)) as f:
        text = f.read()
    coarse = ("divisions = [8, 8, 4]", "divisions = [4, 4, 4]")
    if text.count(coarse[0]) != 1 or text.count(coarse[1]) != 1:
        raise SystemExit(f"make_case: {toml} no longer has the coarse divisions this script replaces")
    fmt = lambda d: "divisions = [" + ", ".join(map(str, d)) + "]"
    return text.replace(coarse[0], fmt(base_div)).replace(coarse[1], fmt(cube_div))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case", choices=sorted(CASES))
    ap.add_argument("--out", help="output directory (default cases/CASE)")
    ap.add_argument("--verify-vtu", help="an emcontact .vtu frame of the same mesh to compare with")
    ap.add_argument("--mass", choices=("consistent", "lumped"), default="consistent")
    ap.add_argument("--search-factor", type=float, default=3.5,
                    help="Kratos' contact search_factor (its default 3.5)")
    ap.add_argument("--dynamic-search", action="store_true",
                    help="Kratos' dynamic_search: search with the positions predicted from the velocity")
    ap.add_argument("--emcontact-toml", metavar="FILE",
                    help="also write emcontact's input for the same case (from the validation toml)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY.PATH=JSON",
                    help="override a ProjectParameters key, e.g. "
                         "solver_settings.contact_settings.use_mixed_ulm_solver=false (repeatable)")
    a = ap.parse_args(argv)
    out = a.out or os.path.join(HERE, "cases", a.case)
    b = write_case(a.case, out, a.mass, a.search_factor, a.verify_vtu, a.dynamic_search, a.set)
    if a.emcontact_toml:
        with open(a.emcontact_toml, "w") as f:
            f.write(emcontact_toml(a.case, os.path.dirname(os.path.dirname(HERE))))
    print(f"{out}: {len(b.nodes)} nodes ({3 * len(b.nodes)} dofs), {len(b.hexes())} hex8, mu = {CASES[a.case][2]}")


if __name__ == "__main__":
    sys.exit(main())
