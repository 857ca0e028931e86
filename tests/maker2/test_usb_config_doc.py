"""docs/protocol.md 1.3 tells a maker how a table config names a USB device, and what it says is accepted."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_usb_config_of_section_1_3_is_a_valid_table_config(tmp_path: Path) -> None:
    """Section 1.3 said the host finds a USB device 'by vendor id, product id and the serial-number string descriptor'
    but no document named the config's keys (vendor_id, product_id, serial): a maker had to guess them."""
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    usb = doc[doc.index("**1.3 USB") : doc.index("## 2. Frames")]
    blocks = re.findall(r"```toml\n(.*?)```", usb, flags=re.DOTALL)
    assert blocks, "docs/protocol.md 1.3 shows no config for a USB device"
    config = (ROOT / "config" / "top-card.toml").read_text(encoding="utf-8")
    head, _, rest = config.partition("[shoe]\n")
    rest = re.sub(r'(?m)^driver = "reference".*\n', "", rest, count=1)
    shoe = blocks[0].replace("[shoe]", "", 1)
    path = tmp_path / "table.toml"
    path.write_text(head + "[shoe]\n" + shoe + rest, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "controller.commands.cli", "config", "check", str(path)],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    listed = subprocess.run([sys.executable, "-m", "controller.commands.cli", "devices", "--no-ask", "--config", str(path)],
                            capture_output=True, text=True, cwd=ROOT, check=False)
    assert "reference-usb" in listed.stdout, listed.stdout + listed.stderr
    # the ids as lsusb and the driver's own messages write them (the listing printed 'usb 7504:24600', in decimal)
    vendor, product = (int(re.findall(rf"(?m)^{key} = (\S+)", shoe)[0], 0) for key in ("vendor_id", "product_id"))
    assert f"usb {vendor:04x}:{product:04x} serial" in listed.stdout, listed.stdout
