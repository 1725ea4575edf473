#!/usr/bin/env bash
# check.sh — revisa las notas del quiosco / checks the kiosk notes.
# Códigos de salida / exit codes: 0 todo comprobado y bien / all checked and fine ·
# 1 algo falló / something failed · 3 nada falló pero algo NO SE COMPROBÓ (falta una
# herramienta) / nothing failed but something was NOT CHECKED (a tool is missing).
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")" || exit 1
FALLAS=0
SIN=0
bien() { printf 'ok    %s\n' "$*"; }
falla() { printf 'FALLA / FAIL: %s\n' "$*"; FALLAS=$((FALLAS + 1)); }
sin() { printf '\n!!!!! NO SE COMPROBÓ / NOT CHECKED: %s !!!!!\n\n' "$*"; SIN=$((SIN + 1)); }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# 1. La política es JSON, sin claves repetidas. / The policy is JSON, no repeated keys.
if python3 -m json.tool chromium-policy.json >/dev/null 2>"$TMP/json"; then
	if python3 -c '
import json, sys
def sin_repetidas(pares):
    vistas = [k for k, _ in pares]
    dup = sorted({k for k in vistas if vistas.count(k) > 1})
    if dup: sys.exit("claves repetidas / repeated keys: " + ", ".join(dup))
    return dict(pares)
json.load(open("chromium-policy.json"), object_pairs_hook=sin_repetidas)' 2>"$TMP/json"; then
		bien "chromium-policy.json es JSON / is JSON"
	else
		falla "chromium-policy.json: $(cat "$TMP/json")"
	fi
else
	falla "chromium-policy.json no es JSON / is not JSON: $(cat "$TMP/json")"
fi

# 2. Cada clave es una política real de Chromium. Probado en Chromium 156 (Debian 12):
# `grep -c -a -F "\"Clave\""` no sirve (los nombres no van entre comillas en el binario:
# da 0 también para URLBlocklist), y `strings | grep -x` acepta palabras sueltas como
# «Printing». Lo que sí sirve: los nombres de política forman en el binario una tabla
# ordenada de nombres CamelCase (la de URLBlocklist); la clave debe estar en esa tabla.
# Cada vez se prueba con URLBlocklist (debe estar) y un nombre inventado (no debe).
# / Every key is a real Chromium policy: it must be in the binary's sorted table of
# policy names (the run holding URLBlocklist); self-tested each time.
CHROMIUM=${CHROMIUM_BIN:-/usr/lib/chromium/chromium}
if [[ -f $CHROMIUM ]] && command -v strings >/dev/null; then
	strings -n 4 "$CHROMIUM" >"$TMP/cadenas"
	python3 - "$TMP/cadenas" chromium-policy.json >"$TMP/politicas" <<'PY'
import json, re, sys
lineas = open(sys.argv[1], encoding="latin-1").read().split("\n")
camel = re.compile(r"^[A-Z][A-Za-z0-9]+$")
def tabla(ancla):
    for i, l in enumerate(lineas):
        if l != ancla:
            continue
        a = i
        while a > 0 and camel.match(lineas[a - 1]) and lineas[a - 1] <= lineas[a]:
            a -= 1
        b = i
        while b + 1 < len(lineas) and camel.match(lineas[b + 1]) and lineas[b] <= lineas[b + 1]:
            b += 1
        if b - a > 100:
            return set(lineas[a:b + 1])
    return set()
nombres = tabla("URLBlocklist")
if "DeveloperToolsAvailability" not in nombres or "AsambleaPoliticaInventada" in nombres:
    print("AUTOPRUEBA / SELF-TEST")
    sys.exit(0)
print("TABLA %d" % len(nombres))
for k in json.load(open(sys.argv[2])):
    print(("SI " if k in nombres else "NO ") + k)
PY
	if grep -q '^AUTOPRUEBA' "$TMP/politicas" || ! grep -q '^TABLA' "$TMP/politicas"; then
		sin "no se halló la tabla de políticas en $CHROMIUM / policy table not found (self-test failed)"
	else
		n=$(grep -c '^SI ' "$TMP/politicas")
		while read -r _ k; do falla "$k no es una política de Chromium / is not a Chromium policy"; done < <(grep '^NO ' "$TMP/politicas")
		grep -q '^NO ' "$TMP/politicas" || bien "las $n claves son políticas de Chromium ($(sed -n 's/^TABLA //p' "$TMP/politicas") en $CHROMIUM) / all keys are Chromium policies"
	fi
else
	sin "chromium missing ($CHROMIUM): no se comprobaron los nombres de política / policy names not checked"
fi

# 3. Sintaxis de los scripts. / Script syntax.
for f in *.sh; do
	if bash -n "$f" 2>"$TMP/n"; then bien "bash -n $f"; else falla "bash -n $f: $(cat "$TMP/n")"; fi
done
for f in raiz/etc/initramfs-tools/hooks/* raiz/etc/initramfs-tools/scripts/*/*; do
	if ! sh -n "$f" 2>"$TMP/n"; then falla "sh -n $f: $(cat "$TMP/n")"
	elif [[ ! -x $f ]]; then falla "$f no es ejecutable (initramfs-tools lo saltaría) / not executable"
	else bien "sh -n $f, ejecutable / executable"; fi
done

# 4. build-image.sh --dry-run. / build-image.sh --dry-run.
if ./build-image.sh --dry-run >"$TMP/seco" 2>&1; then
	if grep -q '^+ mmdebstrap ' "$TMP/seco" && grep -q '^+ veritysetup format ' "$TMP/seco"; then
		bien "build-image.sh --dry-run: sale 0, imprime mmdebstrap y veritysetup / exits 0, prints both"
	else
		falla "build-image.sh --dry-run no imprime mmdebstrap y veritysetup format / does not print them"
	fi
else
	falla "build-image.sh --dry-run salió con / exited $?: $(tail -3 "$TMP/seco")"
fi
build_help=$(./build-image.sh --help 2>&1) || falla "build-image.sh --help no sale 0 / does not exit 0"
[[ $build_help == *Uso*usage* ]] && bien "build-image.sh --help (es/en)" || falla "build-image.sh --help sin texto en español e inglés / lacks es/en text"

# 5. nftables.conf. Sin root se prueba en un espacio de nombres propio (unshare -rn).
# / Without root it is tried in its own user+network namespace.
if command -v nft >/dev/null; then
	if [[ $EUID -eq 0 ]]; then nft -c -f nftables.conf >"$TMP/nft" 2>&1; r=$?
	else unshare -rn nft -c -f nftables.conf >"$TMP/nft" 2>&1; r=$?; fi
	if [[ $r -eq 0 ]]; then
		bien "nft -c -f nftables.conf"
	elif grep 'Error:' "$TMP/nft" | grep -vq 'Operation not permitted'; then
		falla "nft -c -f nftables.conf: $(grep -m3 'Error:' "$TMP/nft")"
	else
		sin "nft -c necesita root aquí / nft -c needs root here"
	fi
else
	sin "nft missing (apt-get install nftables): nftables.conf no se comprobó"
fi

# 6. Unidades de systemd, con sus nombres instalados. Solo se perdona que falten aquí
# los programas del quiosco. / Units under their installed names; only the kiosk's own
# programs may be absent here.
if command -v systemd-analyze >/dev/null; then
	mkdir "$TMP/u"
	cp kiosk.service "$TMP/u/asamblea-kiosk.service"
	cp cage-kiosk.service "$TMP/u/cage-kiosk.service"
	(cd "$TMP/u" && systemd-analyze verify ./asamblea-kiosk.service ./cage-kiosk.service) >"$TMP/sa" 2>&1
	perdon='^[a-z-]+\.service: Command (/usr/local/bin/asamblea-kiosk|/usr/bin/cage) is not executable: No such file or directory$'
	grep -Ev "$perdon" "$TMP/sa" | grep -v '^$' >"$TMP/sa2"
	while read -r l; do
		p=$(sed -E 's/.*Command ([^ ]+) is not.*/\1/' <<<"$l")
		[[ -e $p ]] && falla "systemd-analyze: $l"
	done < <(grep -E "$perdon" "$TMP/sa")
	if [[ -s $TMP/sa2 ]]; then
		while read -r l; do falla "systemd-analyze verify: $l"; done <"$TMP/sa2"
	else
		bien "systemd-analyze verify asamblea-kiosk.service cage-kiosk.service"
	fi
else
	sin "systemd-analyze missing: las unidades no se comprobaron / units not checked"
fi

# 7. Coherencia: daemon y puerto iguales en todas partes. / Same daemon and port everywhere.
d_nft=$(sed -n 's/^define DAEMON = //p' nftables.conf)
d_unit=$(sed -n 's/^IPAddressAllow=localhost //p' kiosk.service)
[[ -n $d_nft && $d_nft == "$d_unit" ]] && bien "daemon $d_nft en nftables.conf y kiosk.service" || falla "daemon distinto / differs: nftables.conf '$d_nft', kiosk.service '$d_unit'"
grep -q -- '--listen 127.0.0.1:8088 ' kiosk.service && grep -q 'http://127.0.0.1:8088/$' cage-kiosk.service &&
	python3 -c 'import json,sys; d=json.load(open("chromium-policy.json")); sys.exit(d.get("URLAllowlist") != ["http://127.0.0.1:8088"] or d.get("VideoCaptureAllowedUrls") != ["http://127.0.0.1:8088"])' 2>/dev/null &&
	bien "página en 127.0.0.1:8088 en kiosk.service, cage-kiosk.service y la política / same page address" ||
	falla "la dirección de la página (127.0.0.1:8088) no coincide / page address differs"
grep -q -- '--scanner /dev/escaner' kiosk.service && grep -q 'SYMLINK+="escaner"' raiz/etc/udev/rules.d/70-escaner.rules &&
	bien "lector /dev/escaner en kiosk.service y la regla de udev / scanner name matches" ||
	falla "el nombre del lector no coincide / scanner name differs"
grep -q ' -s ' <<<"$(grep '^ExecStart=' cage-kiosk.service)" && falla "cage con -s permite cambiar de consola / cage -s allows VT switching"

# 8. Cada orden de la lista de la mañana existe donde se usa: en la imagen (paquete de
# build-image.sh o esencial de Debian), o en la mesa (subórdenes de asamblea en
# crates/cli). / Every command of the morning checklist exists where it is run.
awk '/^## 7\./{s=1; next} /^## /{s=0} s' README.md >"$TMP/lista"
awk '/^[[:space:]]*```/{f=!f; next} f' "$TMP/lista" >"$TMP/ordenes"
awk '/^[[:space:]]*```/{f=!f; next} !f' "$TMP/lista" | grep -o '`[^`]*`' | tr -d '`' |
	grep -E '^[a-z][a-z0-9-]* ' >>"$TMP/ordenes"
PAQ=$(sed -n 's/^PAQUETES=//p' build-image.sh | tr ',' ' ')
declare -A DONDE=([cat]=esencial [cp]=esencial [date]=esencial [echo]=esencial [stty]=esencial
	[grep]=esencial [ls]=esencial [curl]=curl [veritysetup]=cryptsetup-bin [systemctl]=systemd
	[timedatectl]=systemd [asamblea]=mesa)
vistas=()
while IFS= read -r linea; do
	while IFS= read -r seg; do
		read -r orden arg1 resto <<<"$seg" || true
		[[ -n ${orden:-} ]] || continue
		lugar=${DONDE[$orden]:-}
		if [[ $orden == systemctl && ${arg1:-} =~ ^(stop|start|restart|status)$ ]]; then
			u=${resto%% *}
			grep -q "/$u.service\"" build-image.sh || falla "lista de la mañana: $u.service no lo instala build-image.sh / not installed"
		fi
		[[ " ${vistas[*]} " != *" $orden "* ]] || continue
		case $lugar in
		"") falla "lista de la mañana: orden desconocida / unknown command '$orden' ($seg)" ;;
		esencial) ;;
		mesa)
			if [[ -f ../crates/cli/src/cli.rs ]]; then
				v="${arg1^}"
				grep -q "^    ${v} {" ../crates/cli/src/cli.rs || falla "lista de la mañana: 'asamblea $arg1' no existe en crates/cli / does not exist"
			else
				sin "crates/cli/src/cli.rs missing: 'asamblea $arg1' no se comprobó"
			fi ;;
		*) [[ " $PAQ " == *" $lugar "* ]] || falla "lista de la mañana: $orden necesita el paquete $lugar, que build-image.sh no instala / not installed" ;;
		esac
		vistas+=("$orden")
	done < <(sed -E 's/(\|\||&&|\||;)/\n/g' <<<"$linea")
done <"$TMP/ordenes"
if ((${#vistas[@]} == 0)); then
	falla "lista de la mañana sin órdenes (¿falta la sección 7?) / checklist has no commands"
else
	bien "lista de la mañana: $(printf '%s\n' "${vistas[@]}" | sort -u | tr '\n' ' ')existen / exist"
fi

echo
if ((FALLAS > 0)); then
	echo "RESULTADO / RESULT: $FALLAS falla(s) / failure(s)"
	exit 1
elif ((SIN > 0)); then
	echo "RESULTADO / RESULT: sin fallas, pero $SIN comprobación(es) NO SE HICIERON / no failures, but $SIN check(s) NOT DONE"
	exit 3
fi
echo "RESULTADO / RESULT: todo bien / all good"
