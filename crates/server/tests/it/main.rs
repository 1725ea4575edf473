//! Integration tests of `asamblea-server`: one test binary, a module per
//! feature (STYLE.md §13). The whole daemon driven through the binary is
//! tested by the `asamblea` package.

mod tls;
