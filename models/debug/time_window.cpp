#include "debug/time_window.hpp"

#include "common/diagnostics.hpp"
#include "common/units.hpp"

namespace starnuma {

void parse_time_window(const std::string& option, const std::string& text, int64_t& start_ps, int64_t& end_ps) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos)
    report_error(msg::kUsage, option + " " + text + ": expected START:END (e.g. 20us:25us)");
  const auto bound = [&](const std::string& side, int64_t& ps) {
    if (side.empty()) return;
    if (side == "0") {  // zero needs no unit
      ps = 0;
      return;
    }
    const Parsed<Time> t = parse_time(side);
    if (!t) report_error(msg::kUsage, option + " " + text + ": " + t.error);
    if (t.value->ps() < 0) report_error(msg::kUsage, option + " " + text + ": simulated time starts at 0");
    ps = t.value->ps();
  };
  bound(text.substr(0, colon), start_ps);
  bound(text.substr(colon + 1), end_ps);
  if (end_ps <= start_ps) report_error(msg::kUsage, option + " " + text + ": it ends before it starts");
}

}  // namespace starnuma
