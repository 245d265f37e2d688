# lit configuration shared by every test folder under test/.
#
# Substitutions:
#   %clang, %clangxx   the clang the plugin was built for
#   %pp_plugin         -fplugin=<build>/lib/libphaseprobe.so
#   %pp_rt             link flags for the shared runtime (with rpath)
#   %pp_rt_static      link flags for the static runtime
#   %pp_bin            the build's bin/ folder (phaseprobe-* tools)
#   %pp_libdir         the build's lib/ folder (libphaseprobe_rt.so, the plugin)
#   %pp_obj            the build directory
#   %pp_src            the source root (examples/, test inputs)
#   %pp_inputs         test/Inputs
import os
import lit.formats

# ctest passes the build's site configuration (paths to the plugin, runtime and
# tools); lit is run on the source folders directly.
if not getattr(config, "pp_obj_root", None):
    site = lit_config.params.get("site_config")
    if not site:
        lit_config.fatal("pass --param site_config=<build>/test/lit.site.cfg.py (ctest does)")
    exec(open(site).read())

config.name = "phaseprobe"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".c", ".cpp", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.pp_obj_root, "test", "lit-out")

config.environment["PATH"] = os.pathsep.join(
    [config.pp_bin_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
# Tests must not depend on the developer's environment.
for var in list(os.environ):
    if var.startswith("PHASEPROBE_") or var.startswith("OMP_") or var.startswith("KMP_"):
        config.environment.pop(var, None)
config.environment["HOME"] = os.environ.get("HOME", "/tmp")

plugin = os.path.join(config.pp_lib_dir, "libphaseprobe.so")
rt_shared = "-L{0} -Wl,-rpath,{0} -lphaseprobe_rt".format(config.pp_lib_dir)
rt_static = os.path.join(config.pp_lib_dir, "libphaseprobe_rt.a") + " -lhwloc -lpthread -lstdc++ -lm"

config.substitutions.append(("%clangxx", config.clangxx))
config.substitutions.append(("%clang", config.clang))
# -Rpass=phaseprobe switches on clang's location tracking (real file:line:col in
# OpenMP idents, no debug info emitted): clang 14 copies CodeGenOptions before
# any plugin can change them (see clang-plugin/README.md).
config.substitutions.append(("%pp_plugin", "-fplugin=" + plugin + " -Rpass=phaseprobe"))
config.substitutions.append(("%pp_rt_static", rt_static))
config.substitutions.append(("%pp_rt", rt_shared))
config.substitutions.append(("%pp_bin", config.pp_bin_dir))
config.substitutions.append(("%pp_libdir", config.pp_lib_dir))
config.substitutions.append(("%pp_obj", config.pp_obj_root))
config.substitutions.append(("%pp_src", config.pp_src_root))
config.substitutions.append(("%pp_inputs", os.path.join(config.pp_src_root, "test", "Inputs")))
config.substitutions.append(("%python", config.python))
