#include "plugin/plugins.hpp"

#include <dlfcn.h>
#include <elf.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>

#include "common/diagnostics.hpp"
#include "common/text.hpp"
#include "plugin/plugin_api.hpp"

namespace starnuma {

namespace {

// The plug-in API versions a library being loaded registered with, where not this starnuma's.
std::vector<unsigned>& refused_versions() {
  static std::vector<unsigned> versions;
  return versions;
}

std::string version_mismatch(unsigned version) {
  const std::string built = version == 0 ? "starnuma 0.1's plug-in API, which had no version"
                                         : "plug-in API version " + std::to_string(version);
  return "it was built against " + built + "; this starnuma has plug-in API version " +
         std::to_string(STARNUMA_PLUGIN_API_VERSION) +
         ": rebuild it with this starnuma's plugin_api.hpp (find_package(starnuma) or pkg-config "
         "starnuma-plugin, docs/plugins.md)";
}

// Type names a library being loaded tried to register twice (its static initialisers run inside
// dlopen, before the loader can say which library it was).
std::vector<std::string>& clashes() {
  static std::vector<std::string> names;
  return names;
}

// What is wrong with a file as an ELF shared library of this machine, "" if nothing: dlopen maps
// the segments its headers name, and one beyond the file's end dies of SIGBUS when touched.
std::string elf_problem(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::string("cannot open it: ") + std::strerror(errno);
  Elf64_Ehdr h{};
  if (!in.read(reinterpret_cast<char*>(&h), sizeof h) || std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0)
    return "not an ELF shared library";
  if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_machine != EM_X86_64 || h.e_type != ET_DYN)
    return "not a 64-bit x86-64 shared library";
  const uint64_t size = std::filesystem::file_size(path);
  const auto beyond = [&](uint64_t offset, uint64_t bytes) { return offset > size || bytes > size - offset; };
  const std::string truncated =
      "truncated or damaged: its headers describe more than the file's " + std::to_string(size) + " bytes";
  if (h.e_phentsize != sizeof(Elf64_Phdr) || beyond(h.e_phoff, uint64_t{h.e_phnum} * sizeof(Elf64_Phdr)))
    return truncated;
  if (h.e_shoff != 0 && beyond(h.e_shoff, uint64_t{h.e_shnum} * h.e_shentsize)) return truncated;
  in.seekg(static_cast<std::streamoff>(h.e_phoff));
  for (unsigned i = 0; i < h.e_phnum; ++i) {
    Elf64_Phdr ph{};
    if (!in.read(reinterpret_cast<char*>(&ph), sizeof ph)) return truncated;
    if (ph.p_type == PT_LOAD && beyond(ph.p_offset, ph.p_filesz)) return truncated;
  }
  return "";
}

// The library being loaded, for the terminate handler: a plug-in's registration runs in its static
// initialisers, inside dlopen, where an exception it throws cannot be caught and ends the process.
std::string& loading() {
  static std::string path;
  return path;
}

// What the exception in flight is, for a message.
std::string exception_text() {
  try {
    if (std::exception_ptr e = std::current_exception()) std::rethrow_exception(e);
  } catch (const std::exception& e) {
    return std::string("std::exception: ") + e.what();
  } catch (...) {
  }
  return "an exception that is not a std::exception";
}

std::string threw(const std::string& what) { return "its registration (a static initialiser) threw " + what; }

// Where the exception cannot cross the loader's frames, it ends the process: say why, exit 1.
[[noreturn]] void registration_threw() {
  std::fprintf(stderr, "cannot load plug-in '%s': %s\n", loading().c_str(), threw(exception_text()).c_str());
  std::_Exit(1);
}

// dlopen's error text, or empty when the library loaded. A library stays loaded for the process:
// its types stay registered and dlopen of the same file again is a no-op.
std::string open_library(const std::string& path) {
  if (std::string bad = elf_problem(path); !bad.empty()) return bad;
  dlerror();
  clashes().clear();
  refused_versions().clear();
  loading() = path;
  const std::terminate_handler previous = std::set_terminate(registration_threw);
  void* handle = nullptr;
  // glibc declares dlopen noexcept, and the compiler would drop this handler; called through a
  // pointer that may throw, an exception from a static initialiser is caught here.
  void* (*volatile open)(const char*, int) = dlopen;
  try {
    handle = open(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  } catch (...) {  // it crossed the loader: the library is not usable, the process is
    std::set_terminate(previous);
    return threw(exception_text());
  }
  std::set_terminate(previous);
  if (handle) {
    if (!refused_versions().empty()) return version_mismatch(refused_versions().front());
    if (clashes().empty()) return "";
    if (std::find(clashes().begin(), clashes().end(), "") != clashes().end())
      return "it registers a type with an empty name: give it one in the plug-in";
    return "it registers the type '" + join(clashes(), "', '") +
           "', a name already taken by a built-in type or an earlier plug-in: rename it in the plug-in";
  }
  const char* e = dlerror();
  return e ? e : "dlopen failed";
}

}  // namespace

void load_plugins(const std::string& file, const ConfigNode& entry) {
  auto load_one = [&](const ConfigNode& item) {
    if (!item.is_scalar() || item.value().empty())
      throw_config_error({item.location(), "plugins", "expected the path of a shared library (a plug-in)"});
    std::filesystem::path lib(item.value());
    if (lib.is_relative()) lib = std::filesystem::path(file).parent_path() / lib;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(lib, ec))
      throw_config_error({item.location(), "plugins",
                          "cannot open plug-in '" + item.value() + "' (" + lib.string() +
                              " does not exist; a relative path starts at the folder of the platform file)"});
    // dlopen needs a path with a slash, or it searches the library path instead of the file.
    std::string error = open_library(lib.is_absolute() ? lib.string() : "./" + lib.string());
    if (!error.empty())
      throw_config_error({item.location(), "plugins", "cannot load plug-in '" + item.value() + "': " + error});
  };
  if (entry.kind() == ConfigNode::Kind::Sequence) {
    for (const ConfigNode& item : entry.items()) load_one(item);
  } else {
    load_one(entry);
  }
}

bool plugin_api_accepted(unsigned version) {
  if (version == STARNUMA_PLUGIN_API_VERSION) return true;
  refused_versions().push_back(version);
  return false;
}

// The registrations of plug-ins built against starnuma 0.1, before the API had a version: their
// symbols stay so that loading such a plug-in is refused with that reason, not an undefined symbol.
namespace plugin {
bool register_tlm_target(const char*, const char*, TargetFactory);
bool register_tlm_initiator(const char*, const char*, InitiatorFactory);
bool register_switch_model(const char*, const char*, SwitchFactory);
bool register_tlm_target(const char*, const char*, TargetFactory) { return plugin_api_accepted(0); }
bool register_tlm_initiator(const char*, const char*, InitiatorFactory) { return plugin_api_accepted(0); }
bool register_switch_model(const char*, const char*, SwitchFactory) { return plugin_api_accepted(0); }
}  // namespace plugin

bool add_plugin_type(ComponentType type) {
  if (type.name.empty()) {
    clashes().push_back("");  // reported as the empty name
    return false;
  }
  if (ComponentRegistry::instance().find(type.name)) {
    clashes().push_back(type.name);
    return false;
  }
  return ComponentRegistry::instance().add(std::move(type));
}

namespace {
std::vector<std::pair<std::string, std::string>>& plugin_modules() {  // (module name, node)
  static std::vector<std::pair<std::string, std::string>> modules;
  return modules;
}
}  // namespace

void register_plugin_module(const std::string& node, const std::string& module_name) {
  plugin_modules().emplace_back(module_name, node);
}

std::string plugin_node_of_process(const std::string& process) {
  for (const auto& [module, node] : plugin_modules())
    if (process.size() > module.size() && process.compare(0, module.size(), module) == 0 &&
        process[module.size()] == '.')
      return node;
  return "";
}

std::string systemc_error_text(const sc_core::sc_report& r) {
  std::string text = r.get_msg_type();
  std::string msg;
  for (char c : std::string(r.get_msg()))  // SystemC indents its notes on new lines
    if (!std::isspace(static_cast<unsigned char>(c)) || (!msg.empty() && msg.back() != ' '))
      msg += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
  while (!msg.empty() && msg.back() == ' ') msg.pop_back();
  return msg.empty() ? text : text + ": " + msg;
}

void load_plugin(const std::string& path) {
  std::string p = path.find('/') == std::string::npos ? "./" + path : path;
  std::string error = open_library(p);
  if (!error.empty()) report_error(msg::kUsage, "cannot load plug-in '" + path + "': " + error);
}

}  // namespace starnuma
