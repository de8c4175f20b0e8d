//! Build script: generates the parallel program's PETSc binding (`src/petsc/`)
//! by bindgen over the installed headers of Debian's `libpetsc-real-dev`,
//! allowing only what the parallel module calls, and refuses another PETSc
//! version than the one the binding was written and tested against.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    petsc::generate();
}

mod petsc {
    use std::path::PathBuf;
    use std::process::Command;

    /// The PETSc the binding is pinned to (Debian 12's libpetsc-real-dev).
    const MAJOR_MINOR: &str = "3.18";
    const WRAPPER: &str = "src/petsc/wrapper.h";

    fn pkg_config(args: &[&str]) -> String {
        let out = Command::new("pkg-config")
            .args(args)
            .output()
            .unwrap_or_else(|e| {
                panic!("the mpi feature needs pkg-config ({e}); run bash .ci/setup --mpi")
            });
        if !out.status.success() {
            panic!(
                "pkg-config {}: {}; the mpi feature needs libpetsc-real-dev and libopenmpi-dev (bash .ci/setup --mpi)",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    pub fn generate() {
        println!("cargo:rerun-if-changed={WRAPPER}");
        println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
        let version = pkg_config(&["--modversion", "PETSc"]);
        if !version.starts_with(&format!("{MAJOR_MINOR}.")) {
            panic!("PETSc {version} found; the binding of mpi/src/petsc is written for PETSc {MAJOR_MINOR} (Debian 12's libpetsc-real-dev)");
        }
        let mut clang_args = Vec::new();
        for flag in pkg_config(&["--cflags", "PETSc"])
            .split_whitespace()
            .chain(pkg_config(&["--cflags", "ompi-c"]).split_whitespace())
        {
            if flag.starts_with("-I") || flag.starts_with("-D") {
                clang_args.push(flag.to_string());
            }
        }
        for flag in pkg_config(&["--libs", "PETSc"]).split_whitespace() {
            if let Some(dir) = flag.strip_prefix("-L") {
                println!("cargo:rustc-link-search=native={dir}");
                println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
            } else if let Some(lib) = flag.strip_prefix("-l") {
                println!("cargo:rustc-link-lib=dylib={lib}");
            }
        }
        let bindings = bindgen::Builder::default()
            .header(WRAPPER)
            .clang_args(&clang_args)
            .allowlist_function("Petsc(Initialize|Finalize|Initialized|PushErrorHandler|OptionsInsertString|OptionsClear|OptionsSetValue|OptionsLeftGet|OptionsLeftRestore|MallocGetMaximumUsage|MemoryGetMaximumUsage|MemorySetGetMaximumUsage)")
            .allowlist_function("Vec(Create|CreateGhostBlock|Destroy|SetSizes|SetBlockSize|SetFromOptions|SetType|GetArray|RestoreArray|GetArrayRead|RestoreArrayRead|GhostGetLocalForm|GhostRestoreLocalForm|GhostUpdateBegin|GhostUpdateEnd|Duplicate|Norm|Set|Copy|GetLocalSize|GetOwnershipRange)")
            .allowlist_function("Mat(Create|Destroy|SetSizes|SetType|SetBlockSize|GetBlockSize|SetPreallocationCOO|SetValuesCOO|SetNearNullSpace|SetOption|NullSpaceCreateRigidBody|NullSpaceDestroy|GetInfo|CreateDense|MatMult|AXPY|GetColumnNorms|OrderingRegister|GetRowIJ|RestoreRowIJ)")
            .allowlist_function("ISCreateGeneral|PetscObjectComm")
            .allowlist_function("KSP(Create|Destroy|SetOperators|SetFromOptions|SetTolerances|SetReusePreconditioner|Solve|GetConvergedReason|GetIterationNumber|GetPC|SetUp|GetType|SetType|SetPCSide|ConvergedReasons)")
            .allowlist_function("PC(Reset|GetType|SetType|FactorSetMatSolverType|FactorSetMatOrderingType|MatApply)")
            .allowlist_var("PETSC_COMM_WORLD|PETSC_DEFAULT|PETSC_DECIDE|PETSC_DETERMINE|PETSC_ERROR_INITIAL|PETSC_VERSION_(MAJOR|MINOR|SUBMINOR)|KSPConvergedReasons")
            .allowlist_type("PCSide|PetscErrorType|InsertMode|ScatterMode|NormType|KSPConvergedReason|MatOption|MatReuse|MatInfoType|MatInfo|MatStructure|PetscCopyMode|IS|PetscObject")
            .newtype_enum("PCSide|InsertMode|ScatterMode|NormType|MatOption|PetscErrorType|KSPConvergedReason|MatReuse|MatStructure|PetscCopyMode")
            .layout_tests(false)
            .generate()
            .expect("bindgen over the PETSc headers (needs libclang-dev: bash .ci/setup --mpi)");
        let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
        bindings
            .write_to_file(out.join("petsc_sys.rs"))
            .expect("writing the PETSc binding");
    }
}
