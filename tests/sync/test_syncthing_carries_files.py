"""The Syncthing harness works: two local daemons connect and carry a file each way."""

from __future__ import annotations

from tests.sync.syncthing import Pair


def test_two_daemons_carry_a_plain_file_both_ways(syncthing_pair: Pair) -> None:
    a, b = syncthing_pair.daemons
    (a.folder / "from-a.txt").write_text("written on a: ответ উত্তর\n", encoding="utf-8")
    syncthing_pair.wait_in_sync()
    assert (b.folder / "from-a.txt").read_text(encoding="utf-8") == "written on a: ответ উত্তর\n"

    (b.folder / "sub").mkdir()
    (b.folder / "sub" / "from-b.txt").write_bytes(b"written on b\n")
    syncthing_pair.wait_in_sync()
    assert (a.folder / "sub" / "from-b.txt").read_bytes() == b"written on b\n"

    # Offline (the folder paused on both), each side appends to its own file; back online,
    # both get both appends and no conflict copy appears.
    syncthing_pair.set_paused(True)
    with open(a.folder / "from-a.txt", "a", encoding="utf-8") as out:
        out.write("a again\n")
    with open(b.folder / "sub" / "from-b.txt", "ab") as raw:
        raw.write(b"b again\n")
    syncthing_pair.set_paused(False)
    syncthing_pair.wait_in_sync()
    for daemon in (a, b):
        assert (daemon.folder / "from-a.txt").read_text(encoding="utf-8").endswith("a again\n")
        assert (daemon.folder / "sub" / "from-b.txt").read_bytes() == b"written on b\nb again\n"
        assert not list(daemon.folder.rglob("*sync-conflict*"))
