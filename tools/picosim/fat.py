"""A FAT12 image of a CIRCUITPY drive, written in pure Python.

:func:`make_image` turns ``{path: bytes}`` into the bytes of a FAT12 volume
(512-byte sectors, one sector per cluster, one FAT) that CircuitPython mounts as
its drive when the image sits at the drive's flash offset.

Implementation Notes
--------------------

Every name gets long-file-name (VFAT) entries plus a unique ``NAME~N.EXT`` short
alias, so names like ``settings.toml`` or ``adafruit_display_text`` keep their
case and length (CircuitPython's FatFs reads long names). Files are laid out in
contiguous clusters; timestamps are fixed (2026-01-01) so an image is repeatable.
"""

import struct

SECTOR = 512
_DATE = ((2026 - 1980) << 9) | (1 << 5) | 1
_TIME = 0
_ATTR_DIR, _ATTR_ARCHIVE, _ATTR_LABEL, _ATTR_LFN = 0x10, 0x20, 0x08, 0x0F
_SHORT_OK = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


class FatError(ValueError):
    """The files do not fit the volume."""


def _tree(files):
    root = {}
    for path, data in files.items():
        parts = [p for p in path.replace("\\", "/").split("/") if p]
        node = root
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise FatError("%s is both a file and a folder" % part)
        node[parts[-1]] = bytes(data)
    return root


def _short_names(names):
    """Return ``{name: 11-byte short alias}``, unique within one folder."""
    used, out = set(), {}
    for name in names:
        base, _, ext = name.rpartition(".") if "." in name[1:] else (name, "", "")
        base = "".join(c for c in base.upper() if c in _SHORT_OK) or "F"
        ext = "".join(c for c in ext.upper() if c in _SHORT_OK)[:3]
        n = 1
        while True:
            tail = "~%d" % n
            short = (base[:8 - len(tail)] + tail).ljust(8) + ext.ljust(3)
            if short not in used:
                break
            n += 1
        used.add(short)
        out[name] = short.encode("ascii")
    return out


def _lfn_entries(name, short):
    checksum = 0
    for byte in short:
        checksum = (((checksum & 1) << 7) | (checksum >> 1)) + byte & 0xFF
    units = [ord(c) for c in name] + [0]
    units += [0xFFFF] * (-len(units) % 13)
    chunks = [units[i:i + 13] for i in range(0, len(units), 13)]
    entries = []
    for seq, chunk in enumerate(chunks, 1):
        order = seq | (0x40 if seq == len(chunks) else 0)
        entries.append(struct.pack("<B5HBBB6HH2H", order, *chunk[:5], _ATTR_LFN, 0, checksum,
                                   *chunk[5:11], 0, *chunk[11:13]))
    return entries[::-1]  # the last part comes first on disk


def _entry(short, attr, cluster, size):
    return struct.pack("<11sBBBHHHHHHHI", short, attr, 0, 0, _TIME, _DATE, _DATE, 0,
                       _TIME, _DATE, cluster, size)


def make_image(files, total_sectors=2048, label="CIRCUITPY"):
    """Return a FAT12 volume of ``total_sectors`` sectors holding ``files``."""
    root_entries = 512
    root_sectors = root_entries * 32 // SECTOR
    clusters_max = total_sectors  # upper bound for the FAT's size
    fat_sectors = -(-((clusters_max + 2) * 3 // 2 + 1) // SECTOR)
    data_start = 1 + fat_sectors + root_sectors
    clusters = total_sectors - data_start
    if clusters >= 4085:
        raise FatError("too many clusters for FAT12")
    image = bytearray(total_sectors * SECTOR)
    fat = [0] * (clusters + 2)
    fat[0], fat[1] = 0xFF8, 0xFFF
    free = [2]  # next free cluster

    def alloc(nbytes):
        count = max(1, -(-nbytes // SECTOR))
        first = free[0]
        if first + count > clusters + 2:
            raise FatError("the files do not fit a %d KB drive" % (total_sectors // 2))
        for c in range(first, first + count):
            fat[c] = c + 1
        fat[first + count - 1] = 0xFFF
        free[0] += count
        return first

    def write_at(cluster, data):
        off = (data_start + cluster - 2) * SECTOR
        image[off:off + len(data)] = data

    def folder_entries(node, self_cluster, parent_cluster):
        entries = []
        if self_cluster is not None:
            entries.append(_entry(b".          ", _ATTR_DIR, self_cluster, 0))
            entries.append(_entry(b"..         ", _ATTR_DIR, parent_cluster, 0))
        else:
            entries.append(_entry(label.upper().ljust(11)[:11].encode(), _ATTR_LABEL, 0, 0))
        shorts = _short_names(sorted(node))
        for name in sorted(node):
            child = node[name]
            if isinstance(child, dict):
                n_entries = 2 + sum(2 + len(k) // 13 for k in child)
                cluster = alloc(n_entries * 32)
                data = folder_entries(child, cluster, self_cluster or 0)
                count = max(1, -(-len(data) // SECTOR))
                if data_count(cluster) < count:
                    raise FatError("folder %s too large" % name)
                write_at(cluster, data)
                attr, size = _ATTR_DIR, 0
            else:
                cluster = alloc(len(child)) if child else 0
                if child:
                    write_at(cluster, child)
                attr, size = _ATTR_ARCHIVE, len(child)
            entries += _lfn_entries(name, shorts[name])
            entries.append(_entry(shorts[name], attr, cluster, size))
        return b"".join(entries)

    def data_count(first):
        n, c = 1, first
        while fat[c] != 0xFFF:
            c, n = fat[c], n + 1
        return n

    root = folder_entries(_tree(files), None, 0)
    if len(root) > root_entries * 32:
        raise FatError("too many names in the root folder")
    root_off = (1 + fat_sectors) * SECTOR
    image[root_off:root_off + len(root)] = root

    table = bytearray(fat_sectors * SECTOR)
    fat += [0] * (len(fat) % 2)
    for i in range(0, len(fat), 2):
        a, b = fat[i], fat[i + 1]
        table[i * 3 // 2:i * 3 // 2 + 3] = bytes((a & 0xFF, (a >> 8) | ((b & 0xF) << 4), b >> 4))
    image[SECTOR:SECTOR + len(table)] = table

    boot = struct.pack("<3s8sHBHBHHBHHHII", b"\xEB\x3C\x90", b"MSDOS5.0", SECTOR, 1, 1, 1,
                       root_entries, total_sectors, 0xF8, fat_sectors, 32, 2, 0, 0)
    boot += struct.pack("<BBBI11s8s", 0x80, 0, 0x29, 0x43505359, label.upper().ljust(11)[:11]
                        .encode(), b"FAT12   ")
    image[:len(boot)] = boot
    image[510:512] = b"\x55\xAA"
    return bytes(image)
