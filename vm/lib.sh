# shellcheck shell=bash disable=SC2034 # sourced: its variables are used by the others
# Shared by the vm/ scripts (sourced, not run). Paths are relative to the project root,
# which is where make runs them.

VM_CACHE=${VM_CACHE:-.vm-cache}
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
# (the host's ld.so.cache must not leak host libraries into the guest). VM_LIBRARY_PATH:
# one more folder of the tree to search.
guest_loader() {
  "$VM_ROOT/lib64/ld-linux-x86-64.so.2" --inhibit-cache \
    --library-path "$VM_ROOT/lib/x86_64-linux-gnu:$VM_ROOT/usr/lib/x86_64-linux-gnu${VM_LIBRARY_PATH:+:$VM_ROOT/$VM_LIBRARY_PATH}" \
    "$@"
}
