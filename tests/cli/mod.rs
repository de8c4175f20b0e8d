//! The command line and its files: input errors, meshes read and generated, output formats,
//! the output folder, restart, the driver's adaptive steps.

mod adaptive_steps;
mod bad_inputs;
mod contact_memory;
mod docs_paths;
mod driven_acceptance;
mod driven_inputs;
mod honest_runs;
mod input_errors;
mod intrusion_check;
mod ledgers;
mod mesh_generate;
mod mesh_gmsh;
mod module_graph;
mod output_csv;
mod output_folder;
mod output_plot;
mod output_vtk;
mod quadratic_meshes;
mod restart;
mod run;
mod self_contact_inputs;
