"""`tablectl journal restore` of a damaged journal, with the table stopped, as docs/operations.md's runbook prints it:
it restored and said 'verified by the anchor', then noted 'the journal itself (...) cannot be used: journal
/tmp/tablectl-restore-XXXX/journal.sqlite is damaged: ...; restore it: `tablectl journal restore BACKUP`': a temporary
file the reader cannot find, and advice to run the command that had just succeeded. Seen on a deployment walk."""

from __future__ import annotations

from pathlib import Path

from tests.records.suites import cli, play, write_config


def test_the_restores_note_on_the_damaged_journal_names_it_and_does_not_send_the_reader_to_restore_again(tmp_path: Path) -> None:
    write_config(tmp_path)
    assert cli(tmp_path, "journal", "init", "--config", "table.toml").rc == 0
    play(tmp_path, 2, 1)
    assert cli(tmp_path, "journal", "backup", "--config", "table.toml", "--to", "b.sqlite").rc == 0
    play(tmp_path, 2, 3)
    journal = tmp_path / "journal.sqlite"
    data = bytearray(journal.read_bytes())
    for offset in range(len(data) // 2, len(data) // 2 + 3000, 97):
        data[offset] ^= 0x5A
    journal.write_bytes(bytes(data))
    assert cli(tmp_path, "journal", "verify", "--config", "table.toml").rc == 4

    restored = cli(tmp_path, "journal", "restore", "b.sqlite", "--config", "table.toml")
    assert restored.rc == 0, restored.err
    assert "verified by the anchor" in restored.out
    [note] = [line for line in restored.out.splitlines() if line.startswith("  note: the journal itself")]
    assert "cannot be used: journal journal.sqlite" in note and "damaged" in note, note  # the config's own path
    assert "tablectl-restore-" not in note and "restore it" not in note and "journal restore" not in note, note
