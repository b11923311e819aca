# shellcheck shell=bash disable=SC2034 # sourced: its variables are used by the others
# Shared by the vm/ scripts (sourced, not run). Paths are relative to the project root,
# which is where make runs them.

# The Debian release the guests are built from: bookworm (Debian 12, the machine's own
# apt lists) or trixie (Debian 13: apt lists of its own, in its own cache folder, so the
# two releases' trees, kernels and images live side by side).
VM_DEBIAN=${VM_DEBIAN:-bookworm}
case $VM_DEBIAN in
  bookworm) VM_CACHE=${VM_CACHE:-.vm-cache} ;;
  trixie) VM_CACHE=${VM_CACHE:-.vm-cache/trixie} ;;
  *) printf 'vm: error: VM_DEBIAN=%s: bookworm or trixie\n' "$VM_DEBIAN" >&2; exit 1 ;;
esac
# apt-get and apt-cache options for the release: none for the machine's own (bookworm);
# trixie's sources, lists and download cache under VM_CACHE/apt (vm/fetch.sh updates them),
# and no installed packages: the machine's dpkg status holds Debian 12's, which apt would
# take for trixie's (a host with chromium installed made the closure name Debian 12's
# libasound2, which trixie's lists cannot download).
VM_APT_DIR=$(realpath -m "$VM_CACHE/apt") # absolute: apt-get download runs in the .debs folder
VM_APT=()
[ "$VM_DEBIAN" = bookworm ] ||
  VM_APT=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$VM_APT_DIR/sources"
          -o "Dir::State::Lists=$VM_APT_DIR/lists" -o "Dir::Cache=$VM_APT_DIR/cache"
          -o "Dir::State::status=/dev/null")
# Debian packages unpacked side by side: the guest's userland comes from here.
VM_ROOT=$VM_CACHE/root
VM_DEBS=$VM_CACHE/debs
VM_KERNEL_DIR=$VM_CACHE/kernel
# The systemd tier's packages (vm/build-sysimage.sh reads the list in VM_SYS_DEBS/packages).
VM_SYS_DEBS=$VM_CACHE/sysdebs
# The kiosk-stacks tier's packages and their tree (the initramfs tier's, plus them).
VM_STACK_DEBS=$VM_CACHE/stackdebs
VM_STACK_ROOT=$VM_CACHE/stackroot
VM_RECORDINGS=${VM_RECORDINGS:-../shared/recordings}

log() { printf 'vm: %s\n' "$*" >&2; }
die() { printf 'vm: error: %s\n' "$*" >&2; exit 1; }

# The unpacked Debian loader lists what a binary needs, resolved only inside the tree
# (the host's ld.so.cache must not leak host libraries into the guest). udev's programs
# find libsystemd-shared through a RUNPATH, an absolute path the loader would look up on
# the host: the tree's folder comes first. VM_LIBRARY_PATH: more folders of the tree
# (colon-separated).
guest_loader() {
  "$VM_ROOT/lib64/ld-linux-x86-64.so.2" --inhibit-cache \
    --library-path "$VM_ROOT/lib/x86_64-linux-gnu:$VM_ROOT/usr/lib/x86_64-linux-gnu:$VM_ROOT/usr/lib/x86_64-linux-gnu/systemd${VM_LIBRARY_PATH:+:$VM_ROOT/${VM_LIBRARY_PATH//:/:$VM_ROOT/}}" \
    "$@"
}

# Trixie's packages put everything under /usr where bookworm's still use /bin and /lib: a
# trixie tree (and the guest made from it) gets the merged-/usr links a Debian 13 system
# has, so paths such as lib/udev/rules.d name the same files in both releases, and udev
# 257, which looks only under /usr/lib/udev, finds what is staged there. Run after every
# unpack: tar replaces a link with a folder for a package that still ships one.
merge_usr() { # ROOT (bookworm's trees are left as their packages make them)
  [ "$VM_DEBIAN" != bookworm ] || return 0
  local d
  for d in bin sbin lib lib64; do
    mkdir -p "$1/usr/$d"
    if [ -d "$1/$d" ] && [ ! -L "$1/$d" ]; then cp -a "$1/$d/." "$1/usr/$d/" && rm -rf "${1:?}/$d"; fi
    ln -sfn "usr/$d" "$1/$d"
  done
}
