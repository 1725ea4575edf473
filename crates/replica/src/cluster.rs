//! An etcd cluster of three members on loopback, in a temporary folder,
//! each a real `etcd` process that a test or a bench can kill -9 and start
//! again (Debian's `etcd-server`). Not for a venue: its cluster is set up
//! as `docs/replication.md` says.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Why the cluster cannot start here, if it cannot.
pub fn missing() -> Option<&'static str> {
    let runs = Command::new("etcd").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status();
    if runs.is_ok_and(|s| s.success()) {
        None
    } else {
        Some("no etcd (apt-get install etcd-server)")
    }
}

/// Says loudly that a test did not run, and leaves a mark in `marks` (a
/// folder) that `scripts/test` reports; fails in CI, where it must run.
pub fn not_run(test: &str, why: &str, marks: &std::path::Path) {
    assert_ne!(
        std::env::var("CI").as_deref(),
        Ok("true"),
        "CI must run the replication tests: {why} (see .ci/run)"
    );
    eprintln!("\n**** PRUEBA DE REPLICACIÓN NO EJECUTADA / REPLICATION TEST NOT RUN: {test}: {why} ****\n");
    let _ = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(marks.join("replication-tests-not-run"))
        .and_then(|mut f| writeln!(f, "{test}: {why}"));
}

struct Member {
    name: String,
    client: SocketAddr,
    peer: SocketAddr,
    child: Option<Child>,
}

/// Three etcd members, forming one cluster.
pub struct Cluster {
    dir: PathBuf,
    members: Vec<Member>,
    /// With TLS: the PKI folder (`asamblea_pki::create_etcd_pki`) and a
    /// client's configuration, to ask the members whether they are well.
    tls: Option<(PathBuf, std::sync::Arc<rustls::ClientConfig>)>,
}

fn free_port() -> SocketAddr {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap()
}

impl Cluster {
    /// Three members started in a folder of `name`'s, once all answer.
    pub fn start(name: &str) -> Cluster {
        Cluster::start_with(name, None)
    }

    /// Three members that speak TLS alone, to clients and peers, and let
    /// in only a client certificate of the cluster's CA: `pki` holds
    /// `ca.crt`, `member.crt` and `member.key`; `client` is how a node
    /// connects (to ask the members whether they are well).
    pub fn start_tls(
        name: &str,
        pki: &std::path::Path,
        client: std::sync::Arc<rustls::ClientConfig>,
    ) -> Cluster {
        Cluster::start_with(name, Some((pki.to_path_buf(), client)))
    }

    fn start_with(name: &str, tls: Option<(PathBuf, std::sync::Arc<rustls::ClientConfig>)>) -> Cluster {
        Cluster::start_picking(name, tls, &mut free_port)
    }

    /// [`Cluster::start`] with the ports `pick` gives (the test of a port
    /// taken by someone else uses it).
    pub fn start_on_ports(name: &str, pick: &mut dyn FnMut() -> SocketAddr) -> Cluster {
        Cluster::start_picking(name, None, pick)
    }

    fn start_picking(
        name: &str,
        tls: Option<(PathBuf, std::sync::Arc<rustls::ClientConfig>)>,
        pick: &mut dyn FnMut() -> SocketAddr,
    ) -> Cluster {
        let dir = std::env::temp_dir().join(format!("asamblea-etcd-{name}-{}", std::process::id()));
        // A free port is found by binding it and letting it go: another
        // test starting its own cluster at the same moment may take it
        // first. A member that could not bind is started again, with the
        // whole cluster on fresh ports.
        for attempt in 1.. {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            let members: Vec<Member> = (0..3)
                .map(|i| Member { name: format!("m{i}"), client: pick(), peer: pick(), child: None })
                .collect();
            let mut cluster = Cluster { dir: dir.clone(), members, tls: tls.clone() };
            for i in 0..3 {
                cluster.start_member(i);
            }
            // Until every member is well, or one could not bind.
            let started = Instant::now();
            let mut taken = false;
            while started.elapsed() < Duration::from_secs(60) {
                if (0..3).any(|i| cluster.could_not_bind(i)) {
                    taken = true;
                    break;
                }
                if (0..3).all(|i| cluster.is_healthy(i)) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            if taken && attempt < 5 {
                continue;
            }
            // Said with the member's log when it is not well.
            for i in 0..3 {
                cluster.wait_healthy(i);
            }
            return cluster;
        }
        unreachable!("the attempts end with a cluster or a panic")
    }

    /// Whether member `i` ended because its port was taken.
    fn could_not_bind(&mut self, i: usize) -> bool {
        let ended = self.members[i].child.as_mut().is_some_and(|c| c.try_wait().ok().flatten().is_some());
        ended
            && std::fs::read_to_string(self.dir.join(format!("{}.log", self.members[i].name)))
                .is_ok_and(|log| log.contains("address already in use"))
    }

    /// The members' client addresses.
    pub fn endpoints(&self) -> Vec<SocketAddr> {
        self.members.iter().map(|m| m.client).collect()
    }

    fn start_member(&mut self, i: usize) {
        let scheme = if self.tls.is_some() { "https" } else { "http" };
        let initial: Vec<String> =
            self.members.iter().map(|m| format!("{}={scheme}://{}", m.name, m.peer)).collect();
        let member = &self.members[i];
        let log = std::fs::File::create(self.dir.join(format!("{}.log", member.name))).unwrap();
        let mut command = Command::new("etcd");
        command
            .args(["--name", &member.name])
            .arg("--data-dir")
            .arg(self.dir.join(&member.name))
            .args(["--listen-client-urls", &format!("{scheme}://{}", member.client)])
            .args(["--advertise-client-urls", &format!("{scheme}://{}", member.client)])
            .args(["--listen-peer-urls", &format!("{scheme}://{}", member.peer)])
            .args(["--initial-advertise-peer-urls", &format!("{scheme}://{}", member.peer)])
            .args(["--initial-cluster", &initial.join(",")])
            .args(["--initial-cluster-state", "new", "--initial-cluster-token", "asamblea-test"]);
        if let Some((pki, _)) = &self.tls {
            // As docs/replication.md sets a venue's members up.
            let file = |name: &str| pki.join(name).into_os_string();
            command
                .arg("--cert-file")
                .arg(file("member.crt"))
                .arg("--key-file")
                .arg(file("member.key"))
                .arg("--trusted-ca-file")
                .arg(file("ca.crt"))
                .arg("--client-cert-auth")
                .arg("--peer-cert-file")
                .arg(file("member.crt"))
                .arg("--peer-key-file")
                .arg(file("member.key"))
                .arg("--peer-trusted-ca-file")
                .arg(file("ca.crt"))
                .arg("--peer-client-cert-auth");
        }
        let child = command.stdout(Stdio::null()).stderr(log).spawn().expect("etcd starts");
        self.members[i].child = Some(child);
    }

    /// Whether member `i` says it is healthy (the cluster has a leader).
    fn is_healthy(&self, i: usize) -> bool {
        match &self.tls {
            None => health(self.members[i].client),
            // A read through the member answers once the cluster has a
            // leader.
            Some((_, client)) => {
                crate::Etcd::new(vec![self.members[i].client], &asamblea_wire::MeetingId([0; 32]))
                    .with_timeout(Duration::from_secs(2))
                    .with_tls(Some(client.clone()))
                    .leader()
                    .is_ok()
            }
        }
    }

    /// Waits until member `i` says it is healthy (the cluster has a leader).
    fn wait_healthy(&self, i: usize) {
        let started = Instant::now();
        loop {
            if self.is_healthy(i) {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "etcd member {} not healthy: {}",
                self.members[i].name,
                std::fs::read_to_string(self.dir.join(format!("{}.log", self.members[i].name)))
                    .unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// kill -9 of member `i`.
    pub fn kill(&mut self, i: usize) {
        if let Some(mut child) = self.members[i].child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Member `i` started again on its data, once the cluster answers
    /// through it.
    pub fn restart(&mut self, i: usize) {
        // Its data dir holds the cluster: `new` is ignored once it exists.
        self.start_member(i);
        self.wait_healthy(i);
    }
}

/// Whether the member at `client` answers `/health` with `true`.
fn health(client: SocketAddr) -> bool {
    let Ok(mut socket) = TcpStream::connect_timeout(&client, Duration::from_millis(500)) else {
        return false;
    };
    let _ = socket.set_read_timeout(Some(Duration::from_secs(2)));
    if write!(socket, "GET /health HTTP/1.1\r\nHost: {client}\r\nConnection: close\r\n\r\n").is_err() {
        return false;
    }
    let mut answer = String::new();
    let _ = socket.read_to_string(&mut answer);
    answer.contains("\"health\":\"true\"")
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for i in 0..self.members.len() {
            self.kill(i);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
