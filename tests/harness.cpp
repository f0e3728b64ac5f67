#include "tests/harness.h"

#include <sys/wait.h>
#include <unistd.h>

#include "kernels/kernel.h"
#include "sim/hardware_params.h"

namespace ascend::test {

Params make_params(const std::vector<std::string>& sets) {
  Params p = declare_all_params();
  apply_preset(p, "a3");
  for (const auto& kv : sets) p.set_assignment(kv, "test");
  return p;
}

Bench::Bench(const std::vector<std::string>& sets, int dies, RunOptions opts)
    : params(make_params(sets)) {
  sim_ = std::make_unique<Simulation>(params, dies, std::move(opts));
}

KernelRecord& Bench::run(int cores, const std::function<void()>& body) {
  return sim_->run_kernel("test", cores, [&](int) { return body; });
}

KernelRecord& Bench::run(const LaunchShape& shape, const std::function<void()>& body) {
  return sim_->run_kernel("test", shape, [&](int) { return body; });
}

SimError Bench::run_expecting_error(int cores, const std::function<void()>& body) {
  return run_expecting_error(LaunchShape::vector(cores), body);
}

SimError Bench::run_expecting_error(const LaunchShape& shape, const std::function<void()>& body) {
  try {
    run(shape, body);
  } catch (const SimError& e) {
    return e;
  }
  ADD_FAILURE() << "the kernel ended without an error";
  return SimError(kExitOk, "");
}

void Bench::at(model::Tick t, std::function<void()> probe) {
  cluster().scheduler().at(t, std::move(probe));
}

namespace {
// Forks; the child runs f and sends back its text and exit code.
std::pair<int, std::string> fork_run(const std::function<std::pair<int, std::string>()>& f) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    auto [code, text] = f();
    size_t off = 0;
    while (off < text.size()) {
      ssize_t n = write(fds[1], text.data() + off, text.size() - off);
      if (n <= 0) break;
      off += static_cast<size_t>(n);
    }
    close(fds[1]);
    _exit(code);
  }
  close(fds[1]);
  std::string text;
  char buf[65536];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), text};
}

std::pair<int, std::string> guarded(const std::function<std::string()>& f) {
  try {
    return {0, f()};
  } catch (const SimError& e) {
    return {e.code, e.what()};
  } catch (const std::exception& e) {
    return {kExitInternal, e.what()};
  }
}
}  // namespace

Outcome run_scenario(const std::string& kernel, const std::vector<std::string>& sets,
                     const RunOptions& opts) {
  auto [code, text] = fork_run([&] {
    return guarded([&] {
      Params p = make_params(sets);
      p.set("run.kernel", kernel, "test");
      const KernelDef& def = find_kernel(kernel);
      const int dies = def.dies(p);
      std::unique_ptr<KernelRun> run = def.plan(p, dies);  // as the CLI: before anything is built
      RunOptions o = opts;
      o.aic = o.aic || def.uses_cube(p);  // as the CLI: AICs for a kernel that uses the cube
      Simulation sim(p, dies, o);
      run_stages(def, *run, sim, p);
      sim.write_outputs(0, "a3", kernel);
      return sim.stats(0).dump();
    });
  });
  Outcome o;
  o.exit_code = code;
  if (code == 0) {
    o.stats = nlohmann::json::parse(text);
  } else {
    o.message = text;
  }
  return o;
}

nlohmann::json in_child(const std::function<nlohmann::json()>& f) {
  auto [code, text] = fork_run([&] { return guarded([&] { return f().dump(); }); });
  if (code == 0) return nlohmann::json::parse(text);
  return {{"exit_code", code}, {"message", text}};
}

void expect_check(const std::string& kernel, const std::vector<std::string>& sets) {
  Outcome o = run_scenario(kernel, sets);
  std::string args;
  for (const auto& s : sets) args += s + " ";
  EXPECT_EQ(o.exit_code, 0) << kernel << " " << args << "\n" << o.message;
}

}  // namespace ascend::test
