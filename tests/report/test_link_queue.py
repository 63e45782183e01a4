"""Tests of experiments/link_queue.py, a link direction's busy fraction and mean queue per bin of
simulated time, on a made-up VCD whose bins are known by hand.

    python3 tests/report/test_link_queue.py
"""
import contextlib
import io
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "experiments")]
import link_queue  # noqa: E402

# Idle until 10 us; then busy 10-15 us and 20-22 us, the queue 4 deep over 10-15 us and 2 over
# 20-25 us; the waves end at 25 us. The other direction (from flex0) is busy all the time.
VCD = """$timescale 1ps $end
$scope module links $end
$scope module upi_socket0_flex0 $end
$scope module from_flex0 $end
$var wire 1 # busy $end
$var wire 16 $ queue $end
$upscope $end
$scope module from_socket0 $end
$var wire 1 ! busy $end
$var wire 16 " queue $end
$upscope $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
$dumpvars
0!
b0 "
1#
b1 $
$end
#10000000
1!
b100 "
#15000000
0!
b0 "
#20000000
1!
b10 "
#22000000
0!
#25000000
b0 "
"""


def output(vcd: Path, *args) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        link_queue.main("upi_socket0_flex0", "socket0", [str(vcd)], *args)
    return out.getvalue()


class LinkQueue(unittest.TestCase):
    def test_bins_from_the_first_busy_one(self):
        with tempfile.TemporaryDirectory() as d:
            vcd = Path(d) / "w.vcd"
            vcd.write_text(VCD)
            out = output(vcd, 5.0, 0.0)
            # From 10 us to the waves' end at 25 us: busy all of it at 4 deep; idle, empty; busy 2 us
            # of 5 at 2 deep.
            self.assertIn("|---|---|---|---|\n| w.vcd | 10.0 | 1.00 | 4.0 |\n| w.vcd | 15.0 | 0.00 | 0.0 |\n"
                          "| w.vcd | 20.0 | 0.40 | 2.0 |\n", out)
            self.assertNotIn("| w.vcd | 25.0 |", out)
            self.assertNotIn("| w.vcd | 5.0 |", out)
            # The last 10 us only: the last two bins.
            last = output(vcd, 5.0, 10.0)
            self.assertNotIn("| w.vcd | 10.0 |", last)
            self.assertIn("| w.vcd | 15.0 | 0.00 | 0.0 |\n| w.vcd | 20.0 | 0.40 | 2.0 |\n", last)

    def test_a_link_without_waves_is_named(self):
        with tempfile.TemporaryDirectory() as d:
            vcd = Path(d) / "w.vcd"
            vcd.write_text(VCD)
            with self.assertRaises(SystemExit) as e:
                link_queue.main("upi_socket1_flex0", "socket1", [str(vcd)], 5.0, 0.0)
        self.assertIn("--waves-filter 'links.upi_socket1_flex0'", str(e.exception))


if __name__ == "__main__":
    unittest.main()
