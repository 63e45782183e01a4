// The test executables' entry point. libsystemc provides main() and calls sc_main, so gtest's
// own main must not be linked. SystemC warnings and errors that reach the default handler fail
// the running test.
#include <gtest/gtest.h>
#include <systemc>

#include "common/diagnostics.hpp"

namespace {

void fail_on_report(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if (report.get_severity() >= sc_core::SC_WARNING && !(actions & sc_core::SC_THROW))
    ADD_FAILURE() << "SystemC " << (report.get_severity() == sc_core::SC_WARNING ? "warning" : "error") << ": "
                  << report.get_msg_type() << ": " << report.get_msg();
  sc_core::sc_report_handler::default_handler(report, actions);
}

}  // namespace

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  starnuma::install_report_handler();
  sc_core::sc_report_handler::set_handler(fail_on_report);
  return RUN_ALL_TESTS();
}
