//! Integration tests of `asamblea-server`: one test binary, a module per
//! feature (STYLE.md §13). The whole daemon driven through the binary, or
//! beside the conformance runner, is tested by the `asamblea` package.

mod api;
mod internet;
mod tls;
