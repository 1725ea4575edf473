//! The meeting file's parser against the demo meeting and its defects:
//! every error names the file, the line and the key, Spanish first.
use super::*;

/// The demo meeting shipped in `config/demo/`, a mixed meeting.
const SHIPPED_DEMO: &str = include_str!("../../../../config/demo/meeting.toml");

/// The demo meeting held in person: the shipped file without its
/// modality and its `[remote]` table (the lines it added), so that the
/// defects below are named at the lines of the file they were written
/// for; the mixed meeting has tests of its own at the end.
static DEMO_MEETING: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let start = SHIPPED_DEMO.find("# A mixed meeting").expect("the demo says it is mixed");
    let end =
        SHIPPED_DEMO.find("modality = \"mixta\"\n").expect("its modality") + "modality = \"mixta\"\n".len();
    let cut = SHIPPED_DEMO.find("\n# How holders attend from afar").expect("its remote channel");
    format!("{}{}", &SHIPPED_DEMO[..start], &SHIPPED_DEMO[end..cut + 1])
});
const DEMO_REGISTER: &str = include_str!("../../../../config/demo/register.csv");

#[test]
fn the_demo_meeting_and_its_register_load() {
    let shipped = parse("config/demo/meeting.toml", SHIPPED_DEMO).expect("valid demo meeting");
    assert_eq!(shipped.modality, asamblea_rules::Modality::Mixed, "the demo shows a mixed meeting");
    let config = parse("config/demo/meeting.toml", &DEMO_MEETING).expect("valid demo meeting");
    assert_eq!(config.modality, asamblea_rules::Modality::InPerson);
    assert_eq!(config.agenda.len(), 7);
    assert_eq!(config.kind, MeetingKind::Ordinary);
    let crate::register_csv::Imported { register, names, .. } = crate::register_csv::import(
        "config/demo/register.csv",
        DEMO_REGISTER.as_bytes(),
        config.capital,
        |_| {},
    )
    .expect("valid demo register");
    assert!(register.len() >= 300, "{}", register.len());
    assert_eq!(names.len(), register.len());
    assert!(register.iter().any(|(_, h)| h.role().is_some()));
    assert!(register.iter().any(|(_, h)| !h.holdings().preferred.is_zero()));
}

fn error_of(edit: impl Fn(&str) -> String) -> String {
    parse("m.toml", &edit(&DEMO_MEETING)).expect_err("invalid").to_string()
}

#[test]
fn defects_name_the_file_the_line_and_the_key() {
    let e = error_of(|t| t.replace("date = \"2027-03-30\"", "date = \"25/03/2027\""));
    assert_eq!(
        e,
        "m.toml, línea / line 10, clave / key `date`: `25/03/2027` no es una fecha escrita AAAA-MM-DD / `25/03/2027` is not a date written YYYY-MM-DD"
    );
    let e = error_of(|t| t.replace("kind = \"ordinary\"", "kind = \"annual\""));
    assert!(e.starts_with("m.toml, línea / line 5, clave / key `kind`: `annual` no es ninguno de"), "{e}");
    assert!(e.contains("/ `annual` is not one of"), "{e}");
    let e = error_of(|t| t.replace("matter = \"profit-distribution\"", "matter = \"profits\""));
    assert!(e.starts_with("m.toml, línea / line 45, clave / key `agenda[2].matter`"), "{e}");
    let e = error_of(|t| t.replace("id = \"item-2\"", "id = \"item-1\""));
    assert_eq!(
        e,
        "m.toml, línea / line 38, clave / key `agenda[1].id`: `item-1` está repetido / `item-1` is used twice"
    );
    // A missing key is told at the table that lacks it.
    let e = error_of(|t| t.replace("seats = 5\n", ""));
    assert_eq!(
        e,
        "m.toml, línea / line 49, clave / key `agenda[3].seats`: la elección de junta necesita `seats`, el número de puestos / a board election needs `seats`"
    );
    // A key missing from the top of the file has no line to name.
    let e = error_of(|t| t.replace("place = ", "venue = "));
    assert_eq!(e, "m.toml, clave / key `place`: falta: es obligatoria / is required");
    // The acta's table: names are names, and nothing unknown.
    let e = error_of(|t| t.replace("commission = [\"Luisa Martínez Ortiz\"", "commission = [7"));
    assert_eq!(
        e,
        "m.toml, línea / line 26, clave / key `acta.commission[0]`: debe ser un nombre, entre comillas / must be a name, in quotes"
    );
    let e = error_of(|t| t.replace("number = \"045\"", "numero = \"045\""));
    assert!(e.contains("acta.numero"), "{e}");
}

#[test]
fn an_unknown_key_is_named_in_spanish_first_with_its_file_and_line() {
    let text = DEMO_MEETING.replace("number = \"045\"", "numero = \"045\"");
    let error = parse("reunion.toml", &text).expect_err("an unknown key is refused");
    let crate::fields::TomlFileError::Field { file, line, error: field } = &error else {
        panic!("{error:?}")
    };
    assert_eq!((file.as_str(), *line, field.key.as_str()), ("reunion.toml", Some(20), "acta.numero"));
    let said = error.to_string();
    assert_eq!(
        said,
        "reunion.toml, línea / line 20, clave / key `acta.numero`: clave desconocida: revise cómo está escrita / unknown key: check its spelling"
    );
    assert!(said.find("clave desconocida").unwrap() < said.find("unknown key").unwrap(), "{said}");
    // At the top of the file, and in an agenda item, the same.
    let said = parse("m.toml", &DEMO_MEETING.replace("call = ", "cal = ")).unwrap_err().to_string();
    assert!(said.starts_with("m.toml, línea / line 6, clave / key `cal`: clave desconocida"), "{said}");
    let said =
        parse("m.toml", &DEMO_MEETING.replace("seats = 5", "seats = 5\nsillas = 5")).unwrap_err().to_string();
    assert!(
        said.starts_with("m.toml, línea / line 54, clave / key `agenda[3].sillas`: clave desconocida"),
        "{said}"
    );
    // A wrong type says what was expected and what was found.
    let said =
        parse("m.toml", &DEMO_MEETING.replace("seats = 5", "seats = \"cinco\"")).unwrap_err().to_string();
    assert_eq!(
        said,
        "m.toml, línea / line 53, clave / key `agenda[3].seats`: se esperaba un número entero, hay un texto / expected a whole number, found a string"
    );
    // Not TOML at all: the line and the column.
    let said =
        parse("m.toml", &DEMO_MEETING.replace("time = \"10:00\"", "time = 10:00\"")).unwrap_err().to_string();
    assert!(said.starts_with("m.toml, línea / line 11, columna / column "), "{said}");
    assert!(said.contains(": el archivo no es TOML válido / not valid TOML: "), "{said}");
}

#[test]
fn the_actas_table_is_read_and_may_be_left_out() {
    let config = parse("m.toml", &DEMO_MEETING).unwrap();
    assert_eq!(config.acta.number.as_deref(), Some("045"));
    assert_eq!(config.acta.commission.len(), 2);
    let start = DEMO_MEETING.find("[acta]").unwrap();
    let end = DEMO_MEETING.find("[capital]").unwrap();
    let without = format!("{}{}", &DEMO_MEETING[..start], &DEMO_MEETING[end..]);
    assert_eq!(parse("m.toml", &without).unwrap().acta, ActaFields::default());
}

#[test]
fn dates_and_times_are_real_and_the_notice_comes_first() {
    let e = error_of(|t| t.replace("date = \"2027-03-30\"", "date = \"2027-02-30\""));
    assert!(
        e.starts_with(
            "m.toml, línea / line 10, clave / key `date`: `2027-02-30` no es una fecha del calendario"
        ),
        "{e}"
    );
    let e = error_of(|t| t.replace("date = \"2027-03-30\"", "date = \"2027-13-01\""));
    assert!(e.contains("no es una fecha del calendario"), "{e}");
    let leap = DEMO_MEETING.replace("date = \"2027-03-30\"", "date = \"2028-02-29\"");
    assert!(parse("m.toml", &leap).is_ok(), "2028 is a leap year");
    let e = error_of(|t| t.replace("date = \"2027-03-30\"", "date = \"2026-02-29\""));
    assert!(e.contains("no es una fecha del calendario"), "{e}");
    let e = error_of(|t| t.replace("time = \"10:00\"", "time = \"25:99\""));
    assert!(
        e.starts_with("m.toml, línea / line 11, clave / key `time`: `25:99` no es una hora HH:MM"),
        "{e}"
    );
    let e = error_of(|t| t.replace("convened_on = \"2027-03-02\"", "convened_on = \"2027-03-31\""));
    assert!(
        e.starts_with("m.toml, línea / line 14, clave / key `convened_on`: la convocatoria (2027-03-31) debe ser anterior"),
        "{e}"
    );
    let e = error_of(|t| t.replace("convened_on = \"2027-03-02\"", "convened_on = \"2027-03-30\""));
    assert!(e.contains("debe ser anterior"), "the same day is not before: {e}");
}

/// The demo meeting edited by `edits`, parsed and its convening
/// checked as `init` does: the error as a person reads it.
fn convening_of(edits: &[(&str, &str)]) -> Result<(), String> {
    let mut text = DEMO_MEETING.to_string();
    for (from, to) in edits {
        assert!(text.contains(from), "{from}");
        text = text.replace(from, to);
    }
    let config = parse("m.toml", &text).map_err(|e| e.to_string())?;
    check_convening("m.toml", &text, &config).map_err(|e| e.to_string())
}

const NOTICE: &str = "convened_on = \"2027-03-02\"";
const DATE: &str = "date = \"2027-03-30\"";

/// The demo examines the year-end statements on Tuesday 30 March 2027:
/// 15 business days (St Joseph's on the 22nd, Holy Thursday and Friday,
/// the weekends and neither end not counted) from 3 March, 14 from the
/// 4th.
#[test]
fn fifteen_business_days_for_the_statements_at_their_boundary() {
    assert_eq!(convening_of(&[]), Ok(()));
    assert_eq!(convening_of(&[(NOTICE, "convened_on = \"2027-03-03\"")]), Ok(()));
    let e = convening_of(&[(NOTICE, "convened_on = \"2027-03-04\"")]).unwrap_err();
    assert!(
        e.starts_with("m.toml, línea / line 14, clave / key `convened_on`: «Estados financieros de fin de ejercicio 2026» (agenda[1], financial-statements) pide convocar con 15 días hábiles de antelación (C.Co. art. 424), sin contar el día del aviso ni el de la reunión; del 2027-03-04 al 2027-03-30 hay 14 días hábiles. La última fecha de convocatoria que basta es el 2027-03-03: escriba convened_on = \"2027-03-03\" o antes"),
        "{e}"
    );
    assert!(e.contains(" / «Estados financieros de fin de ejercicio 2026» (financial-statements) needs 15 business days of notice"), "{e}");
}

/// With no matter that asks more, 5 common days: for Friday 12 March
/// 2027, from the 6th (7 to 11 between) and not from the 7th.
#[test]
fn five_common_days_otherwise_at_their_boundary() {
    let start = DEMO_MEETING.find("[[agenda]]\nid = \"item-2\"").unwrap();
    let agenda_rest = &DEMO_MEETING[start..];
    let only_ordinary: [(&str, &str); 2] = [(agenda_rest, ""), (DATE, "date = \"2027-03-12\"")];
    let with = |notice: &str| {
        let mut edits = only_ordinary.to_vec();
        let line = format!("convened_on = \"{notice}\"");
        edits.push((NOTICE, &line));
        convening_of(&edits)
    };
    assert_eq!(with("2027-03-06"), Ok(()));
    let e = with("2027-03-07").unwrap_err();
    assert!(e.contains("pide convocar con 5 días comunes de antelación (C.Co. art. 424)"), "{e}");
    assert!(e.contains("del 2027-03-07 al 2027-03-12 hay 4 días comunes"), "{e}");
    assert!(e.contains("La última fecha de convocatoria que basta es el 2027-03-06"), "{e}");
}

/// An ordinary meeting by 31 March (C.Co. art. 422): the 31st is in,
/// 1 April out, with the ways out said.
#[test]
fn the_ordinary_window_ends_on_31_march() {
    assert_eq!(convening_of(&[(DATE, "date = \"2027-03-31\"")]), Ok(()));
    let e = convening_of(&[(DATE, "date = \"2027-04-01\"")]).unwrap_err();
    assert!(e.starts_with("m.toml, línea / line 10, clave / key `date`: la reunión ordinaria se celebra dentro de los tres meses siguientes al cierre del ejercicio del 31 de diciembre, a más tardar el 2027-03-31 (C.Co. art. 422); el archivo dice 2027-04-01."), "{e}");
    assert!(e.contains("call = \"own-right\"") && e.contains("kind = \"extraordinary\""), "{e}");
    // An extraordinary meeting or a second call has no such window.
    let extraordinary =
        convening_of(&[(DATE, "date = \"2027-04-20\""), ("kind = \"ordinary\"", "kind = \"extraordinary\"")]);
    assert_eq!(extraordinary, Ok(()));
}

/// A meeting by own right needs no notice and meets on the first
/// business day of April; a universal one needs no notice.
#[test]
fn own_right_and_universal_meetings_need_no_notice() {
    let no_notice = [
        ("convened_by = \"Aviso publicado en El Tiempo y en la página web de la sociedad\"\n", ""),
        ("convened_on = \"2027-03-02\"\n", ""),
    ];
    let own_right = |date: &str| {
        let line = format!("date = \"{date}\"");
        let mut edits = no_notice.to_vec();
        edits.extend([("call = \"first\"", "call = \"own-right\""), (DATE, line.as_str())]);
        convening_of(&edits)
    };
    assert_eq!(own_right("2027-04-01"), Ok(()));
    let e = own_right("2027-04-02").unwrap_err();
    assert!(e.starts_with("m.toml, línea / line 10, clave / key `date`: la reunión por derecho propio se reúne el primer día hábil de abril"), "{e}");
    assert!(e.contains("escriba date = \"2027-04-01\""), "{e}");
    // Without a notice and without a reason, the notice is missing.
    let e = convening_of(&no_notice).unwrap_err();
    assert!(e.contains("`convened_by`: falta"), "{e}");
    let mut universal = no_notice.to_vec();
    universal.push(("profile = \"grupo-aval\"", "profile = \"grupo-aval\"\nuniversal = true"));
    assert_eq!(convening_of(&universal), Ok(()));
    // A universal meeting convened late is not refused either.
    let late = [(NOTICE, "convened_on = \"2027-03-29\"\nuniversal = true")];
    assert_eq!(convening_of(&late), Ok(()));
    let config =
        parse("m.toml", &DEMO_MEETING.replace(NOTICE, "convened_on = \"2027-03-29\"\nuniversal = true"))
            .unwrap();
    assert!(config.universal);
}

#[test]
fn agenda_ids_and_lists_follow_the_ledger_rules_at_init() {
    let long = "x".repeat(65);
    let e = error_of(|t| t.replace("id = \"item-1\"", &format!("id = \"{long}\"")));
    assert!(
        e.starts_with("m.toml, línea / line 33, clave / key `agenda[0].id`: no cabe en el registro"),
        "{e}"
    );
    let e = error_of(|t| t.replace("id = \"item-1\"", "id = \"item\\u0007\""));
    assert!(e.starts_with("m.toml, línea / line 33, clave / key `agenda[0].id`: contiene U+0007"), "{e}");
    let e = error_of(|t| t.replace("\"Lista 1\"", &format!("\"{long}\"")));
    assert!(
        e.starts_with("m.toml, línea / line 55, clave / key `agenda[3].lists[0]`: no cabe en el registro"),
        "{e}"
    );
    // Latin L and Cyrillic Ӏ (U+04C0) look alike.
    let e = error_of(|t| t.replace("\"Lista 2\"", "\"\\u04C0ista 1\""));
    assert!(
        e.starts_with(
            "m.toml, línea / line 65, clave / key `agenda[3].lists[1]`: `Ӏista 1` se confunde a la vista con `Lista 1`"
        ),
        "{e}"
    );
    let e = error_of(|t| t.replace("id = \"item-2\"", "id = \"ITEM-1\""));
    assert!(
        e.starts_with("m.toml, línea / line 38, clave / key `agenda[1].id`: `ITEM-1` se confunde a la vista con `item-1`"),
        "{e}"
    );
    let e =
        error_of(|t| t.replace("company = \"Inversiones Andinas S.A.\"", "company = \"Inversiones\\u0000\""));
    assert!(e.starts_with("m.toml, línea / line 3, clave / key `company`: contiene U+0000"), "{e}");
    // An id written in NFD is stored in NFC.
    let nfd = DEMO_MEETING.replace("id = \"item-1\"", "id = \"ítem-1\"".replace('í', "i\u{301}").as_str());
    let config = parse("m.toml", &nfd).expect("valid");
    assert_eq!(config.agenda[0].spec.id(), "\u{ed}tem-1");
}

/// The demo meeting convened as `modality`, with `remote` as its
/// `[remote]` table (none when empty).
fn with_modality(modality: &str, remote: &str) -> String {
    let mut text = DEMO_MEETING.replace(
        "profile = \"grupo-aval\"\n",
        &format!("profile = \"grupo-aval\"\nmodality = \"{modality}\"\n"),
    );
    if !remote.is_empty() {
        text.push_str("\n[remote]\n");
        text.push_str(remote);
    }
    text
}

const REMOTE: &str = "medium = \"Plataforma de la sociedad, https://asamblea.example.co\"\naccess = \"El enlace llega al correo registrado\"\nidentity_check = \"Documento ante la cámara\"\nfloor = \"Se pide en el chat; la presidencia la concede en orden\"\nidentity_delegated = true\n";

#[test]
fn a_file_without_modality_is_presencial_and_a_mixed_one_reads_its_channel() {
    let config = parse("m.toml", &DEMO_MEETING).unwrap();
    assert_eq!((config.modality, config.remote.is_none()), (Modality::InPerson, true));
    assert_eq!(config.remote_presence, RemotePresence { heartbeat_seconds: 60, timeout_seconds: 300 });
    let config = parse("m.toml", &with_modality("mixta", REMOTE)).unwrap();
    assert_eq!(config.modality, Modality::Mixed);
    let remote = config.remote.unwrap();
    assert_eq!(remote.medium, "Plataforma de la sociedad, https://asamblea.example.co");
    assert_eq!(remote.floor, "Se pide en el chat; la presidencia la concede en orden");
    assert!(remote.identity_delegated);
    // The meeting file may change the profile's heartbeat and timeout.
    let text = with_modality(
        "no-presencial",
        &format!("{REMOTE}heartbeat_seconds = 30\npresence_timeout_seconds = 120\n"),
    );
    let config = parse("m.toml", &text).unwrap();
    assert_eq!(config.modality, Modality::Remote);
    assert_eq!(config.remote_presence, RemotePresence { heartbeat_seconds: 30, timeout_seconds: 120 });
}

/// Each key `[remote]` requires, left out in turn: refused naming the key
/// and the line of its table, Spanish first, with what to write.
#[test]
fn a_remote_channel_refuses_each_missing_key_naming_it() {
    let line_of_remote = with_modality("mixta", REMOTE).lines().position(|l| l == "[remote]").unwrap() + 1;
    for (key, what, _) in REQUIRED_TEXTS.iter().copied().chain([(
        "identity_delegated",
        "diga si el representante legal delega",
        "",
    )]) {
        for modality in ["mixta", "no-presencial"] {
            let remote: String = REMOTE
                .lines()
                .filter(|l| !l.starts_with(&format!("{key} ")))
                .map(|l| format!("{l}\n"))
                .collect();
            let e = parse("m.toml", &with_modality(modality, &remote)).expect_err(key).to_string();
            let head = format!("m.toml, línea / line {line_of_remote}, clave / key `remote.{key}`: falta");
            assert!(e.starts_with(&head), "{key}: {e}");
            assert!(e.contains(what), "{key}: {e}");
            assert!(e.contains(&format!("{key} = ")), "says what to write: {e}");
            assert!(e.contains(" / "), "then English: {e}");
            // An empty text is as missing as an absent one.
            if key != "identity_delegated" {
                let blank = REMOTE.replace(&format!("{key} = \""), &format!("{key} = \"  \" #"));
                let e = parse("m.toml", &with_modality(modality, &blank)).expect_err(key).to_string();
                assert!(e.contains(&format!("`remote.{key}`: falta")), "{e}");
            }
        }
    }
    // No [remote] at all: told at the modality's line.
    let text = with_modality("mixta", "");
    let line = text.lines().position(|l| l.starts_with("modality")).unwrap() + 1;
    let e = parse("m.toml", &text).unwrap_err().to_string();
    assert!(
        e.starts_with(&format!(
            "m.toml, línea / line {line}, clave / key `modality`: con modality = \"mixta\""
        )),
        "{e}"
    );
    assert!(e.contains("agregue la tabla [remote]"), "{e}");
    // A presencial meeting has no remote channel, and an unknown modality
    // is named.
    let e = parse("m.toml", &with_modality("presencial", REMOTE)).unwrap_err().to_string();
    assert!(e.contains("`remote`: una reunión presencial no tiene canal remoto"), "{e}");
    let e = parse("m.toml", &with_modality("virtual", REMOTE)).unwrap_err().to_string();
    assert!(e.contains("`modality`: `virtual` no es ninguno de: presencial, mixta, no-presencial"), "{e}");
    // A timeout no longer than a heartbeat is refused.
    let text =
        with_modality("mixta", &format!("{REMOTE}heartbeat_seconds = 60\npresence_timeout_seconds = 60\n"));
    let e = parse("m.toml", &text).unwrap_err().to_string();
    assert!(
        e.contains(
            "`remote.presence_timeout_seconds`: la ausencia (60 s) debe durar más que un latido (60 s)"
        ),
        "{e}"
    );
}

/// The example of `docs/meeting-file.md` §1.3 reads as it says: its
/// `modality` among the keys at the top, its `[remote]` table at the end.
#[test]
fn the_documented_mixed_meeting_example_reads() {
    let doc = include_str!("../../../../docs/meeting-file.md");
    let section = &doc[doc.find("### 1.3").expect("§1.3")..];
    let start = section.find("```toml\n").expect("an example") + "```toml\n".len();
    let example = &section[start..start + section[start..].find("```").unwrap()];
    let (modality, remote) = example.split_once("\n\n").expect("modality, then [remote]");
    let text = DEMO_MEETING
        .replace("profile = \"grupo-aval\"\n", &format!("profile = \"grupo-aval\"\n{modality}\n"))
        + "\n"
        + remote;
    let config = parse("m.toml", &text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(config.modality, Modality::Mixed);
    assert!(config.remote.unwrap().identity_delegated);
    assert_eq!(config.remote_presence, RemotePresence { heartbeat_seconds: 60, timeout_seconds: 300 });
}

#[test]
fn the_poll_timing_is_the_profiles_unless_the_meeting_says_otherwise() {
    use asamblea_rules::PollTiming;
    let without = DEMO_MEETING
        .replace("poll_minimum_open_seconds = 0\n", "")
        .replace("poll_minimum_countdown_seconds = 0\n", "");
    let config = parse("m.toml", &without).unwrap();
    assert_eq!(config.profile.poll_timing(), PollTiming::DEFAULT, "two minutes, 30 s by default");
    assert_eq!(PollTiming::DEFAULT, PollTiming { min_open_ms: 120_000, min_countdown_ms: 30_000 });
    let config = parse("m.toml", &DEMO_MEETING).unwrap();
    assert_eq!(config.profile.poll_timing(), PollTiming { min_open_ms: 0, min_countdown_ms: 0 });
    let longer = DEMO_MEETING
        .replace("poll_minimum_open_seconds = 0", "poll_minimum_open_seconds = 300")
        .replace("poll_minimum_countdown_seconds = 0", "poll_minimum_countdown_seconds = 86400");
    let config = parse("m.toml", &longer).unwrap();
    assert_eq!(
        config.profile.poll_timing(),
        PollTiming { min_open_ms: 300_000, min_countdown_ms: 86_400_000 }
    );
    let too_long = DEMO_MEETING.replace("poll_minimum_open_seconds = 0", "poll_minimum_open_seconds = 86401");
    let said = parse("m.toml", &too_long).unwrap_err().to_string();
    assert!(said.contains("`settings.poll_minimum_open_seconds`: a lo sumo 86.400 segundos"), "{said}");
    let negative =
        DEMO_MEETING.replace("poll_minimum_countdown_seconds = 0", "poll_minimum_countdown_seconds = -1");
    let said = parse("m.toml", &negative).unwrap_err().to_string();
    assert!(said.contains("`settings.poll_minimum_countdown_seconds`: no puede ser negativo"), "{said}");
}
