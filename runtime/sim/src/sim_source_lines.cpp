// Where in the program's own source a placement error or a copy happens.
//
// A stack walk (backtrace) gives return addresses; those in LibTorch, todevice
// and the C/C++ runtime are dropped by their shared object (dladdr, cheap);
// the rest are symbolized with addr2line from the program's debug info
// (inlined frames included), and the first frame whose function is not
// LibTorch's, todevice's or the standard library's inline code is the
// program's: "train.cpp:42 in train_step". Without debug info addr2line still
// names the function from the symbol table ("in train_step"); without
// addr2line, dladdr names exported functions only.
#include "sim_internal.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <link.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>

#include <unistd.h>

namespace todevice {
namespace sim {
namespace detail {
namespace {

bool starts_with(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

/// Shared objects that are not the program: LibTorch and what it links, todevice, the C/C++ runtime.
bool is_library_object(const char* path) {
  if (path == nullptr || *path == '\0')
    return true;
  std::string name(path);
  name = name.substr(name.find_last_of('/') + 1);
  for (const char* library :
       {"libtorch", "libc10", "libtodevice", "libc.so", "libc-", "libstdc++", "libgcc_s",
        "libpthread", "ld-linux", "libgomp", "libomp", "libiomp", "libshm", "libm.so", "libdnnl",
        "libmkl", "libopenblas", "libblas", "libcblas", "liblapack", "libsleef", "libprotobuf",
        "libgloo", "libXNNPACK", "libnnpack", "libcpuinfo", "libfmt", "libcaffe2"})
    if (starts_with(name, library))
      return true;
  return false;
}

/// A function or file of LibTorch's, todevice's or the standard library's
/// headers, compiled into the program (inline code): not the program's own place.
/// A demangled function without its parameters, and without "(anonymous
/// namespace)::" (whose parenthesis would otherwise cut the name short):
/// "(anonymous namespace)::train_step(at::Tensor)" -> "train_step".
std::string without_parameters(std::string function) {
  static const std::string anonymous = "(anonymous namespace)::";
  for (std::size_t at; (at = function.find(anonymous)) != std::string::npos;)
    function.erase(at, anonymous.size());
  return function.substr(0, function.find('('));
}

bool is_library_code(const std::string& function, const std::string& file) {
  // A function template's name comes with its return type ("void torch::load<...>").
  std::string name = without_parameters(function);
  name = name.substr(0, name.find('<'));
  name = name.substr(name.rfind(' ') == std::string::npos ? 0 : name.rfind(' ') + 1);
  for (const char* ns : {"at::", "c10::", "torch::", "std::", "todevice::", "caffe2::",
                         "__gnu_cxx::", "__cxxabiv1::"})
    if (starts_with(name, ns))
      return true;
  // A sanitizer's runtime, linked into the program itself (-fsanitize=address):
  // its interceptors (backtrace, memcpy) are frames of the executable.
  for (const char* runtime : {"__interceptor_", "___interceptor_", "__asan", "__sanitizer",
                              "__ubsan", "__lsan"})
    if (starts_with(name, runtime))
      return true;
  for (const char* dir : {"/torch/csrc/", "/ATen/", "/c10/", "/include/c++/", "/todevice/"})
    if (file.find(dir) != std::string::npos)
      return true;
  return false;
}

/// The address addr2line wants: relative to the object's load address for a
/// position-independent object, as is for a fixed-address executable.
std::uintptr_t file_address(void* address, const Dl_info& info) {
  const auto* header = static_cast<const ElfW(Ehdr)*>(info.dli_fbase);
  // The call, not the instruction after it (a return address).
  const auto at = reinterpret_cast<std::uintptr_t>(address) - 1;
  return header != nullptr && header->e_type == ET_DYN
             ? at - reinterpret_cast<std::uintptr_t>(info.dli_fbase)
             : at;
}

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct Frame {
  std::string function;
  std::string file; ///< "" when unknown
  unsigned line = 0;
};

/// addr2line's frames for each of `addresses` (file addresses in `object`),
/// innermost (inlined) first; empty when addr2line cannot be run.
std::vector<std::vector<Frame>> symbolize(const std::string& object,
                                          const std::vector<std::uintptr_t>& addresses) {
  std::ostringstream command;
  command << "addr2line -a -f -C -i -e " << quoted(object);
  for (std::uintptr_t a : addresses)
    command << " 0x" << std::hex << a;
  command << " 2>/dev/null";
  std::vector<std::vector<Frame>> frames;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.str().c_str(), "r"), pclose);
  if (!pipe)
    return frames;
  char buffer[4096];
  std::vector<std::string> lines;
  while (std::fgets(buffer, sizeof buffer, pipe.get()) != nullptr) {
    std::string line(buffer);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
      line.pop_back();
    lines.push_back(line);
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (starts_with(lines[i], "0x")) { // -a: each address starts its block
      frames.emplace_back();
      continue;
    }
    if (frames.empty() || i + 1 >= lines.size())
      break;
    Frame f;
    f.function = lines[i];
    std::string where = lines[++i];
    where = where.substr(0, where.find(" (discriminator"));
    const std::size_t colon = where.rfind(':');
    if (colon != std::string::npos && !starts_with(where, "??")) {
      f.file = where.substr(0, colon);
      f.line = static_cast<unsigned>(std::strtoul(where.c_str() + colon + 1, nullptr, 10));
    }
    if (f.function == "??")
      f.function.clear();
    frames.back().push_back(std::move(f));
  }
  if (frames.size() != addresses.size())
    frames.clear();
  return frames;
}

std::string demangled(const char* symbol) {
  if (symbol == nullptr)
    return "";
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(symbol, nullptr, nullptr, &status),
                                              std::free);
  return status == 0 && name ? std::string(name.get()) : std::string(symbol);
}

std::string describe(const Frame& f) {
  std::string file = f.file;
  if (!file.empty()) {
    // Relative to the working directory when below it, as a compiler prints it.
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) != nullptr) {
      const std::string prefix = std::string(cwd) + "/";
      if (starts_with(file, prefix.c_str()))
        file = file.substr(prefix.size());
    }
  }
  std::string function = without_parameters(f.function);
  if (file.empty() || f.line == 0)
    return function.empty() ? std::string() : "in " + function;
  return file + ":" + std::to_string(f.line) + (function.empty() ? "" : " in " + function);
}

} // namespace

std::vector<void*> program_addresses(std::size_t max) {
  void* frames[64];
  const int count = backtrace(frames, 64);
  return program_addresses_of(frames + 1, count - 1, max); // 0: this function
}

std::vector<void*> program_addresses_of(void* const* frames, int count, std::size_t max) {
  std::vector<void*> kept;
  for (int i = 0; i < count && kept.size() < max; ++i) {
    Dl_info info;
    if (dladdr(frames[i], &info) != 0 && !is_library_object(info.dli_fname))
      kept.push_back(frames[i]);
  }
  return kept;
}

std::vector<std::string> describe_sites(const std::vector<std::vector<void*>>& stacks) {
  // One addr2line per object, for every address of every stack.
  std::map<std::string, std::vector<std::uintptr_t>> by_object;
  std::map<void*, std::pair<std::string, std::size_t>> slot; // address -> (object, index)
  for (const auto& stack : stacks)
    for (void* address : stack) {
      Dl_info info;
      if (slot.count(address) || dladdr(address, &info) == 0)
        continue;
      auto& list = by_object[info.dli_fname];
      slot[address] = {info.dli_fname, list.size()};
      list.push_back(file_address(address, info));
    }
  std::map<std::string, std::vector<std::vector<Frame>>> symbols;
  for (const auto& [object, addresses] : by_object)
    symbols[object] = symbolize(object, addresses);

  std::vector<std::string> sites;
  for (const auto& stack : stacks) {
    std::string site;
    for (void* address : stack) {
      const auto& [object, index] = slot[address];
      const auto& known = symbols[object];
      std::vector<Frame> frames;
      if (index < known.size())
        frames = known[index];
      if (frames.empty()) { // no addr2line: the exported symbol, if any
        Dl_info info;
        if (dladdr(address, &info) != 0)
          frames.push_back({demangled(info.dli_sname), "", 0});
      }
      for (const Frame& f : frames)
        if (!f.function.empty() && !is_library_code(f.function, f.file)) {
          site = describe(f);
          break;
        }
      if (!site.empty())
        break;
    }
    sites.push_back(site);
  }
  return sites;
}

std::string program_site() {
  return describe_sites({program_addresses(16)}).front();
}

} // namespace detail
} // namespace sim
} // namespace todevice
