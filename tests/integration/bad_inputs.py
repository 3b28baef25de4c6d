"""Hostile input files for test_bad_input.py (and the fuzz corpus): each is written into a
folder and named by what is wrong with it."""
import json
import os
import struct


def npy(descr="<f8", fortran=False, shape=(2, 2), data=None, magic=b"\x93NUMPY", version=(1, 0), header=None):
    if header is None:
        header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
            descr, "True" if fortran else "False", repr(tuple(shape)))
    h = header.encode("latin1")
    pad = 64 - (10 + len(h) + 1) % 64
    h = h + b" " * pad + b"\n"
    if data is None:
        data = struct.pack("<4d", 1, 2, 3, 4)
    return magic + bytes(version) + struct.pack("<H", len(h)) + h + data


NPY = {
    "magic.npy": npy(magic=b"\x89PNG\r\n"),
    "truncated.npy": npy(data=struct.pack("<3d", 1, 2, 3)),
    "huge_shape.npy": npy(shape=(2**40, 2**30)),
    "overflow_shape.npy": npy(shape=(2**62, 2**62)),
    "int_dtype_str.npy": npy(descr="<U8"),
    "object.npy": npy(descr="|O"),
    "complex.npy": npy(descr="<c16", data=b"\0" * 64),
    "float128.npy": npy(descr="<f16", data=b"\0" * 64),
    "raw2.npy": npy(descr="<V2", data=b"\0" * 8),
    "fortran_truncated.npy": npy(fortran=True, shape=(3, 2)),
    "bigendian_complex.npy": npy(descr=">c8", data=b"\0" * 32),
    "four_d.npy": npy(shape=(2, 1, 1, 2)),
    "empty_shape.npy": npy(shape=(0, 4), data=b""),
    "garbage_header.npy": npy(header="this is not a dict"),
    "version9.npy": npy(version=(9, 0)),
    "short.npy": b"\x93NUMPY\x01",
    "empty.npy": b"",
}

CSV = {
    "ragged.csv": b"a,b,c\n1,2,3\n4,5\n",
    "text_cell.csv": b"1,2,3\n4,five,6\n",
    "empty.csv": b"",
    "blank_lines.csv": b"\n\n  \n",
    "bom_text.csv": b"\xef\xbb\xbfx,y\n1,oops\n",
    "quote.csv": b'1,"2\n',
    "header_only.csv": b"a,b\n",
    "position_only.csv": b"position\n0\n1\n",
    "mixed_first_line.csv": b"1,2O\n3,4\n5,6\n",
    "nul.csv": b"a,b\n1,\x00\n",
    "utf16.csv": "a,b\n1,2\n".encode("utf-16"),
    "latin1.csv": b"x,y\n1,\xe9\n",
    "big.csv": b"".join(b"%d,0.5,0.25,0.125\n" % i for i in range(20000)),
}

HEAD = {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 4096}


def cfg(**kw):
    d = dict(HEAD)
    d.update(kw)
    return json.dumps(d).encode()


def zip_stored(name, data, crc=None):
    """A one-member zip archive (stored), as np.savez writes it, with a chosen CRC-32."""
    import zlib
    crc = zlib.crc32(data) if crc is None else crc
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0, crc, len(data), len(data), len(name), 0)
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0, 0, crc, len(data), len(data), len(name),
                          0, 0, 0, 0, 0, 0)
    body = local + name + data
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central) + len(name), len(body), 0)
    return body + central + name + end


NPZ = {
    "bad_crc.npz": zip_stored(b"pe.npy", npy(), crc=0x12345678),
    "truncated.npz": zip_stored(b"pe.npy", npy())[:70],
    "no_npy.npz": zip_stored(b"notes.txt", b"hello"),
    "bad_member.npz": zip_stored(b"pe.npy", npy(shape=(9, 9))),
}

CSV.update({
    "every_2nd.csv": b",position,a\n0,0,1\n2,2,3\n4,4,5\n",
    "long_form.csv": b"head,i,j,bias\n0,0,0,0\n0,0,1,-1\n0,1,0,-1\n0,1,1,0\n",
    "semicolon.csv": b"a;b\n1;2\n",
})

CONFIG = {
    "not_json.json": b"{rope_theta: 10000",
    "array.json": b"[1, 2, 3]",
    "empty.json": b"",
    "empty.gguf": b"",  # issue 26 item 15: read as GGUF (its name), not diagnosed as invalid JSON
    "json_named.gguf": b'{"rope_theta": 10000}',
    "theta_string.json": cfg(rope_theta="10000"),
    "theta_one.json": cfg(rope_theta=1),
    "theta_negative.json": cfg(rope_theta=-5),
    "theta_nan.json": b'{"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": NaN}',
    "theta_huge.json": cfg(rope_theta=1e400) if False else b'{"hidden_size": 64, "num_attention_heads": 1, "rope_theta": 1e400}',
    "no_heads.json": json.dumps({"hidden_size": 4096}).encode(),
    "zero_heads.json": cfg(num_attention_heads=0),
    "head_dim_negative.json": cfg(head_dim=-4),
    "head_dim_odd.json": cfg(head_dim=63),
    "head_dim_float.json": cfg(head_dim=64.5),
    "scaling_string.json": cfg(rope_scaling="linear"),
    "scaling_no_type.json": cfg(rope_scaling={"factor": 2.0}),
    "scaling_bad_type.json": cfg(rope_scaling={"rope_type": "magic", "factor": 2.0}),
    "factor_zero.json": cfg(rope_scaling={"rope_type": "linear", "factor": 0}),
    "factor_negative.json": cfg(rope_scaling={"rope_type": "yarn", "factor": -2}),
    "factor_missing.json": cfg(rope_scaling={"rope_type": "dynamic"}),
    "factor_string.json": cfg(rope_scaling={"rope_type": "linear", "factor": "2"}),
    "llama3_missing.json": cfg(rope_scaling={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0}),
    "longrope_length.json": cfg(rope_scaling={"rope_type": "longrope", "short_factor": [1.0, 1.0],
                                              "long_factor": [1.0, 1.0], "original_max_position_embeddings": 4096}),
    "longrope_item.json": cfg(rope_scaling={"rope_type": "longrope", "short_factor": [1.0, "x"],
                                            "long_factor": [1.0]}),
    "partial_big.json": cfg(partial_rotary_factor=2.0),
    "truncate_string.json": cfg(rope_scaling={"rope_type": "yarn", "factor": 4.0, "truncate": "yes"}),
}


def write_all(folder):
    os.makedirs(folder, exist_ok=True)
    for group in (NPY, NPZ, CSV, CONFIG):
        for name, data in group.items():
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
    os.makedirs(os.path.join(folder, "folder.npy"), exist_ok=True)
    if not os.path.lexists(os.path.join(folder, "zero.csv")):
        os.symlink("/dev/zero", os.path.join(folder, "zero.csv"))  # endless: read with a cap
        os.symlink("/dev/zero", os.path.join(folder, "zero.json"))
    with open(os.path.join(folder, "table.txt"), "wb") as f:
        f.write(b"1 2\n")
