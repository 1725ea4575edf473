//! The etcd cluster's own PKI, for a replicated meeting
//! (`docs/replication.md`): a CA of its own — not the venue's, whose
//! kiosk certificates must never reach the cluster — one certificate for
//! the members (server and peer, naming every member's host), and one
//! client certificate for the nodes. `asamblea etcd-tls OUT --host …`
//! writes them; each etcd member is started with `ca.crt`, `member.crt`
//! and `member.key` and `--client-cert-auth`, and each node's `serve
//! --replica-tls OUT` presents `client.crt`. The CA's key is not kept:
//! nothing is issued later (a replacement member uses the same files).
//!
//! ```text
//! OUT/ca.crt                       the cluster's CA (public)
//! OUT/member.crt, member.key       every member's (0600 key)
//! OUT/client.crt, client.key       the nodes' (0600 key)
//! ```

use super::*;

/// Makes the cluster's PKI in `out` (created; refused when it exists) for
/// the members at `hosts` (DNS names or IP addresses; `localhost` and the
/// loopback addresses are always named).
pub fn create_etcd_pki(out: &Path, hosts: &[String]) -> Result<()> {
    let names = server_names(hosts)?;
    match private_dir_builder().create(out) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Err(PkiError::AlreadyMade { path: out.to_path_buf() })
        }
        Err(source) => return Err(PkiError::Io { path: out.to_path_buf(), doing: CREATE_DIR, source }),
    }
    let generate = |what: &'static str| KeyPair::generate().map_err(PkiError::crypto(what));
    let ca_key =
        generate("no se puede generar la clave de la autoridad de etcd / cannot generate etcd's CA key")?;
    let mut ca_params = ca_issuer_params("asamblea etcd CA");
    validity(&mut ca_params, CA_VALIDITY_DAYS);
    let ca_cert = ca_params
        .self_signed(&ca_key)
        .map_err(PkiError::crypto("no se puede hacer la autoridad de etcd / cannot make etcd's CA"))?;
    let issuer = Issuer::new(ca_params, ca_key);

    let mut member = CertificateParams::new(names.clone())
        .map_err(PkiError::crypto("los nombres de los miembros de etcd / etcd members' names"))?;
    member.distinguished_name = distinguished_name("asamblea etcd member");
    member.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    // Each member is a server to the nodes and to its peers, and a client
    // to its peers.
    member.extended_key_usages =
        vec![ExtendedKeyUsagePurpose::ServerAuth, ExtendedKeyUsagePurpose::ClientAuth];
    member.use_authority_key_identifier_extension = true;
    validity(&mut member, LEAF_VALIDITY_DAYS);
    let member_key =
        generate("no se puede generar la clave de los miembros / cannot generate the members' key")?;
    let member_cert = member.signed_by(&member_key, &issuer).map_err(PkiError::crypto(
        "no se puede firmar el certificado de los miembros / cannot sign the members' certificate",
    ))?;

    let client_key = generate("no se puede generar la clave de los nodos / cannot generate the nodes' key")?;
    let client_cert =
        leaf_params("asamblea node").signed_by(&client_key, &issuer).map_err(PkiError::crypto(
            "no se puede firmar el certificado de los nodos / cannot sign the nodes' certificate",
        ))?;

    write_new_file(&out.join("ca.crt"), &ca_cert.pem(), false)?;
    write_new_file(&out.join("member.crt"), &member_cert.pem(), false)?;
    write_new_file(&out.join("member.key"), &member_key.serialize_pem(), true)?;
    write_new_file(&out.join("client.crt"), &client_cert.pem(), false)?;
    write_new_file(&out.join("client.key"), &client_key.serialize_pem(), true)?;
    Ok(())
}

/// The nodes' TLS configuration toward the cluster: trusts the cluster's
/// CA alone and presents the nodes' client certificate, from `out`.
pub fn etcd_client_config(out: &Path) -> Result<Arc<ClientConfig>> {
    let read = |name: &str| -> Result<String> {
        let path = out.join(name);
        fs::read_to_string(&path).map_err(PkiError::io(&path, READ))
    };
    let (ca, cert, key) = (read("ca.crt")?, read("client.crt")?, read("client.key")?);
    Ok(Arc::new(client_config(&ca, Some((&cert, &key)))?))
}
