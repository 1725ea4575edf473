//! How much a running daemon logs (`ASAMBLEA_LOG`) and where: one line an
//! event on standard error.

/// The variable that sets how much a running daemon logs.
const LOG_VARIABLE: &str = "ASAMBLEA_LOG";

/// The level `ASAMBLEA_LOG` names: one of `error`, `warn`, `info`,
/// `debug`, `trace`, `off` (any case); unset or empty, `info`. Anything
/// else (a number too, or bytes that are not text) is refused.
pub(super) fn log_level(
    value: Result<String, std::env::VarError>,
) -> anyhow::Result<tracing_subscriber::filter::LevelFilter> {
    use tracing_subscriber::filter::LevelFilter;
    let value = match value {
        Ok(value) => value,
        Err(std::env::VarError::NotPresent) => return Ok(LevelFilter::INFO),
        Err(std::env::VarError::NotUnicode(value)) => value.to_string_lossy().into_owned(),
    };
    let level = match value.trim().to_ascii_lowercase().as_str() {
        "" | "info" => LevelFilter::INFO,
        "error" => LevelFilter::ERROR,
        "warn" => LevelFilter::WARN,
        "debug" => LevelFilter::DEBUG,
        "trace" => LevelFilter::TRACE,
        "off" => LevelFilter::OFF,
        _ => anyhow::bail!(
            "{LOG_VARIABLE}={value:?} no es un nivel de registro: use error, warn, info, debug, trace u off / \
             is not a log level: use error, warn, info, debug, trace or off"
        ),
    };
    Ok(level)
}

/// Sends a running daemon's log to standard error, one line per event
/// with its time (UTC) and level: what the operator's terminal shows
/// besides the addresses and tokens printed at start, at the level
/// [`log_level`] reads from `ASAMBLEA_LOG`; a wrong value is refused
/// before anything starts.
pub(super) fn start_logging() -> anyhow::Result<()> {
    let level = log_level(std::env::var(LOG_VARIABLE))?;
    // A second daemon in the same process (tests) keeps the first's.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level)
        .with_target(false)
        .with_ansi(false)
        .try_init();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::env::VarError;
    use tracing_subscriber::filter::LevelFilter;

    #[test]
    fn log_levels_are_the_six_names_and_unset_or_empty_is_info() {
        let level = |value: &str| log_level(Ok(value.to_string())).map_err(|e| e.to_string());
        assert_eq!(log_level(Err(VarError::NotPresent)).unwrap(), LevelFilter::INFO);
        assert_eq!(level("").unwrap(), LevelFilter::INFO);
        assert_eq!(level(" WARN ").unwrap(), LevelFilter::WARN);
        assert_eq!(level("off").unwrap(), LevelFilter::OFF);
        assert_eq!(level("trace").unwrap(), LevelFilter::TRACE);
        for wrong in ["loud", "3", "warning"] {
            let error = level(wrong).unwrap_err();
            assert!(error.contains("no es un nivel de registro"), "{wrong}: {error}");
        }
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStringExt;
            let bytes = std::ffi::OsString::from_vec(vec![0x69, 0x6e, 0xff]);
            assert!(log_level(Err(VarError::NotUnicode(bytes))).is_err());
        }
    }
}
