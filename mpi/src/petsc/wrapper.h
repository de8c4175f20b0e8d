/* The PETSc headers the project's binding is generated from (build.rs). */
#include <petscksp.h>
#include <petscversion.h>
#if PETSC_VERSION_MAJOR != 3 || PETSC_VERSION_MINOR != 18
#error "the binding of mpi/src/petsc is written for PETSc 3.18"
#endif
