#!/usr/bin/env bash
# build-image.sh — construye la imagen de disco del quiosco (Debian 12, raíz de solo
# lectura con dm-verity) e imprime su suma raíz. / Builds the kiosk's disk image
# (Debian 12, read-only root under dm-verity) and prints its root hash.
# Con --dry-run solo imprime las órdenes (+ …) / --dry-run only prints the commands.
set -euo pipefail

AQUI=${BASH_SOURCE[0]%/*}
[[ $AQUI != "${BASH_SOURCE[0]}" ]] || AQUI=.
AQUI=$(cd "$AQUI" && pwd)
SECO=0
SALIDA=asamblea-quiosco.img
DAEMON=10.20.0.10
VERITY=1
TECLADO=0
BINARIO="$AQUI/../target/release/asamblea-kiosk"
ESPEJO=http://deb.debian.org/debian
EXTRA=""
PAQUETES=systemd,systemd-sysv,udev,dbus,libpam-systemd,linux-image-amd64,initramfs-tools,systemd-boot-efi,cage,chromium,libgl1-mesa-dri,fonts-dejavu-core,nftables,cryptsetup-bin,tpm2-tools,ca-certificates,curl

ayuda() {
	local t
	IFS= read -r -d '' t <<'FIN' || true
Uso / usage: build-image.sh [opciones / options]

Construye asamblea-quiosco.img: ESP con systemd-boot, raíz squashfs de solo lectura
protegida con dm-verity, árbol de sumas, y /var escribible. Al final imprime la SUMA
RAÍZ: anótela en la hoja de sellos. Necesita root, mmdebstrap, squashfs-tools,
cryptsetup-bin, parted, dosfstools, mtools, e2fsprogs.
Builds asamblea-quiosco.img: an ESP with systemd-boot, a read-only squashfs root under
dm-verity, its hash tree, and a writable /var. Prints the ROOT HASH at the end: write
it on the seal sheet. Needs root and the tools above.

  --kiosk-bin RUTA   el asamblea-kiosk compilado / the built asamblea-kiosk
                     (por defecto / default: ../target/release/asamblea-kiosk)
  --daemon IP        dirección del daemon en la red de la sede / the daemon's address
                     (por defecto / default: 10.20.0.10)
  --salida ARCHIVO   la imagen a escribir / image to write (asamblea-quiosco.img)
  --extra PAQ,PAQ    paquetes de más, p. ej. firmware de vídeo / extra packages,
                     e.g. firmware-misc-nonfree
  --teclado          la pantalla acepta teclados (lector en modo teclado, respaldo) /
                     the screen accepts keyboards (keyboard-wedge fallback)
  --sin-verity       raíz solo de lectura sin dm-verity (ver README) / read-only root
                     without dm-verity (see README)
  --dry-run          imprime cada orden (+ …) sin cambiar nada ni pedir root /
                     prints every command, changes nothing, needs no root
  --help             esta ayuda / this help

Ejemplo / example:
  sudo ./build-image.sh --kiosk-bin ../target/release/asamblea-kiosk --daemon 10.20.0.10

Códigos de salida / exit codes: 0 imagen escrita (o --dry-run) / image written ·
1 falló una orden / a command failed · 2 uso incorrecto o falta algo / bad usage.
FIN
	printf '%s' "$t"
}

falla() { echo "build-image.sh: $*" >&2; exit 2; }

while [[ $# -gt 0 ]]; do
	case "$1" in
	--kiosk-bin) [[ $# -ge 2 ]] || falla "--kiosk-bin necesita una ruta / needs a path"; BINARIO=$2; shift 2 ;;
	--daemon) [[ $# -ge 2 ]] || falla "--daemon necesita una IP / needs an IP"; DAEMON=$2; shift 2 ;;
	--salida) [[ $# -ge 2 ]] || falla "--salida necesita un archivo / needs a file"; SALIDA=$2; shift 2 ;;
	--extra) [[ $# -ge 2 ]] || falla "--extra necesita paquetes / needs packages"; EXTRA=$2; shift 2 ;;
	--teclado) TECLADO=1; shift ;;
	--sin-verity) VERITY=0; shift ;;
	--dry-run) SECO=1; shift ;;
	-h | --help) ayuda; exit 0 ;;
	*) falla "opción desconocida / unknown option: $1 (--help)" ;;
	esac
done
[[ $DAEMON =~ ^([0-9]{1,3}\.){3}[0-9]{1,3}$ ]] || falla "--daemon: no es una IPv4 / not an IPv4 address: $DAEMON"
[[ -z $EXTRA ]] || PAQUETES="$PAQUETES,$EXTRA"

# Una sola lista de órdenes para --dry-run y para la construcción real.
# One list of commands for --dry-run and for the real build.
cita() { # comillas solo si hacen falta / quote only when needed
	if [[ $1 =~ ^[A-Za-z0-9_./:=,@%+-]+$ ]]; then printf ' %s' "$1"; else printf " '%s'" "${1//\'/\'\\\'\'}"; fi
}
run() {
	printf '+'
	for a in "$@"; do cita "$a"; done
	printf '\n'
	[[ $SECO == 1 ]] || "$@"
}
# Escribe un archivo de texto (se imprime como heredoc). / Writes a text file.
escribir() {
	printf "+ cat > %q <<'EOF'\n%s\nEOF\n" "$1" "$2"
	[[ $SECO == 1 ]] || printf '%s\n' "$2" >"$1"
}

if [[ $SECO == 0 ]]; then
	[[ $EUID -eq 0 ]] || falla "hace falta root (o use --dry-run) / needs root (or use --dry-run)"
	faltan=""
	for h in mmdebstrap mksquashfs veritysetup parted mkfs.vfat mmd mcopy mkfs.ext4 truncate dd sed; do
		command -v "$h" >/dev/null || faltan="$faltan $h"
	done
	[[ -z $faltan ]] || falla "faltan / missing:$faltan — apt-get install mmdebstrap squashfs-tools cryptsetup-bin parted dosfstools mtools e2fsprogs"
	[[ -x $BINARIO ]] || falla "no hay asamblea-kiosk en / no asamblea-kiosk at $BINARIO (--kiosk-bin)"
	[[ ! -e $SALIDA ]] || falla "$SALIDA ya existe; bórrela / already exists; delete it"
fi

[[ $SALIDA == /* ]] || SALIDA="$PWD/$SALIDA"
T="${SALIDA%.img}.trabajo"   # carpeta de trabajo / work directory
A="$T/arbol"                 # archivos propios, con sus rutas finales / our files
R="$T/raiz"                  # la raíz del quiosco / the kiosk's root

# 1. Nuestros archivos / our files.
run mkdir "$T"
run cp -a "$AQUI/raiz" "$A"
run install -D -m 0644 "$AQUI/chromium-policy.json" "$A/etc/chromium/policies/managed/asamblea.json"
run install -D -m 0644 "$AQUI/nftables.conf" "$A/etc/nftables.conf"
run sed -i "s/^define DAEMON = .*/define DAEMON = $DAEMON/" "$A/etc/nftables.conf"
run install -D -m 0644 "$AQUI/kiosk.service" "$A/etc/systemd/system/asamblea-kiosk.service"
run sed -i "s/^IPAddressAllow=localhost .*/IPAddressAllow=localhost $DAEMON/" "$A/etc/systemd/system/asamblea-kiosk.service"
run install -D -m 0644 "$AQUI/cage-kiosk.service" "$A/etc/systemd/system/cage-kiosk.service"
run install -D -m 0755 "$BINARIO" "$A/usr/local/bin/asamblea-kiosk"
[[ $TECLADO == 0 ]] || run rm "$A/etc/udev/rules.d/71-sin-teclado.rules"

# 2. Debian 12 mínimo con nuestros archivos; initramfs con el gancho de verity.
# Minimal Debian 12 with our files; initramfs with the verity hook.
run mmdebstrap --variant=minbase --components=main,non-free-firmware \
	--include="$PAQUETES" \
	--customize-hook="sync-in $A /" \
	--customize-hook='chroot "$1" useradd --system --user-group --home-dir /home/quiosco --shell /usr/sbin/nologin quiosco' \
	--customize-hook='chroot "$1" update-initramfs -u -k all' \
	bookworm "$R" "$ESPEJO"
run systemctl --root="$R" enable systemd-networkd.service nftables.service asamblea-kiosk.service cage-kiosk.service getty@tty1.service
run systemctl --root="$R" set-default graphical.target
run systemctl --root="$R" mask getty@tty2.service getty@tty3.service getty@tty4.service getty@tty5.service getty@tty6.service ctrl-alt-del.target apt-daily.timer apt-daily-upgrade.timer
# La dirección fija de cada quiosco vive en /var (ver README, paso 2). / Each kiosk's
# static address lives on /var.
run mkdir -p "$R/etc/systemd/network"
run ln -s /var/lib/asamblea-red/10-lan.network "$R/etc/systemd/network/10-lan.network"
run truncate -s 0 "$R/etc/machine-id"
# Contraseña de root: solo para el arranque «Mantenimiento». / Root password: only for
# the maintenance boot entry.
run chroot "$R" passwd root

# 3. Sistemas de archivos / file systems.
run mksquashfs "$R" "$T/raiz.img" -noappend -comp zstd -wildcards -e 'var/*'
run mkfs.ext4 -q -L var -d "$R/var" "$T/var.img" 1024M
OPCIONES="ro quiet panic=30 fsck.mode=skip systemd.gpt_auto=0"
if [[ $VERITY == 1 ]]; then
	run veritysetup format "$T/raiz.img" "$T/raiz-verity.img" --root-hash-file="$T/suma-raiz"
	if [[ $SECO == 1 ]]; then SUMA='<suma-raíz>'; else SUMA=$(<"$T/suma-raiz"); fi
	OPCIONES="root=/dev/mapper/raiz asamblea.roothash=$SUMA $OPCIONES"
else
	SUMA='(sin dm-verity / no dm-verity)'
	OPCIONES="root=/dev/disk/by-partlabel/raiz $OPCIONES"
fi

# 4. Arranque: systemd-boot sin editor de la línea del núcleo. / Boot: systemd-boot,
# kernel command line not editable.
escribir "$T/loader.conf" "default asamblea.conf
timeout 3
editor no
auto-entries no
auto-firmware no"
escribir "$T/asamblea.conf" "title   Asamblea - quiosco
linux   /vmlinuz
initrd  /initrd.img
options $OPCIONES"
escribir "$T/mantenimiento.conf" "title   Mantenimiento / maintenance
linux   /vmlinuz
initrd  /initrd.img
options $OPCIONES systemd.unit=multi-user.target"
run mkfs.vfat -F 32 -n ESP -C "$T/esp.img" 262144
run mmd -i "$T/esp.img" ::/EFI ::/EFI/BOOT ::/loader ::/loader/entries
run mcopy -i "$T/esp.img" "$R/usr/lib/systemd/boot/efi/systemd-bootx64.efi" ::/EFI/BOOT/BOOTX64.EFI
if [[ $SECO == 1 ]]; then
	NUCLEO="$R/boot/vmlinuz-<versión>"
else
	NUCLEO=$(ls -1 "$R"/boot/vmlinuz-* | sort -V | tail -n 1)
fi
run mcopy -i "$T/esp.img" "$NUCLEO" ::/vmlinuz
run mcopy -i "$T/esp.img" "${NUCLEO/vmlinuz-/initrd.img-}" ::/initrd.img
run mcopy -i "$T/esp.img" "$T/loader.conf" ::/loader/loader.conf
run mcopy -i "$T/esp.img" "$T/asamblea.conf" "$T/mantenimiento.conf" ::/loader/entries/

# 5. El disco: esp 256 MiB · raiz 2 GiB · raiz-verity 64 MiB · var 1 GiB (GPT).
# The disk image, partitions named by GPT label.
if [[ $SECO == 0 ]]; then
	(($(stat -c %s "$T/raiz.img") <= 2048 * 1048576)) || falla "raiz.img pasa de 2 GiB / exceeds 2 GiB"
fi
run truncate -s 3400M "$SALIDA"
run parted --script "$SALIDA" mklabel gpt \
	mkpart esp fat32 1MiB 257MiB set 1 esp on \
	mkpart raiz 257MiB 2305MiB \
	mkpart raiz-verity 2305MiB 2369MiB \
	mkpart var ext4 2369MiB 3393MiB
run dd if="$T/esp.img" of="$SALIDA" bs=1M seek=1 conv=notrunc status=none
run dd if="$T/raiz.img" of="$SALIDA" bs=1M seek=257 conv=notrunc status=none
[[ $VERITY == 0 ]] || run dd if="$T/raiz-verity.img" of="$SALIDA" bs=1M seek=2305 conv=notrunc status=none
run dd if="$T/var.img" of="$SALIDA" bs=1M seek=2369 conv=notrunc status=none

echo
echo "Imagen / image: $SALIDA (daemon $DAEMON)"
echo "SUMA RAÍZ / ROOT HASH: $SUMA"
echo "Anótela en la hoja de sellos y en el anexo del acta. / Write it on the seal sheet and in the acta's annex."
echo "Borre $T cuando termine / delete $T when done."
