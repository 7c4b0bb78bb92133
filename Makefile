# SPDX-License-Identifier: GPL-2.0
#
#   make            dependencies (apt-get, once), modules (W=1: fabric.ko and
#                   the modules that register with it), tools, tests
#   make check      unit and host tests, then the VM selftests; ends
#                   "N passed, N failed"
#   make demo       the README's demo in a VM
#   make bench      congestion controls side by side (QUICK=1: a smoke run;
#                   CASES=mrt,libfabric: only those cases)
#   make fuzz       the libFuzzer targets, FUZZ_TIME seconds each (60)
#   make sim        fabsim's scenarios (sim/scenarios) on ns-3 at fabric
#                   scale, and their report (build/sim/report.md)
#   make soak       the reliability suite's long runs in the VM: 10^6
#                   fuzzed packets, 10^5 netlink messages, 100 load and
#                   netns rounds, a long lossy transfer (over an hour)
#   make check-debug  every VM suite on a KASAN/UBSAN/lockdep/kmemleak
#                   kernel built from linux-source-6.1 (cached; KCSAN=1: the
#                   KCSAN kernel)
#   make install    modules into /lib/modules/$(KVER)/updates, depmod, ccreplay,
#                   fabctl (with its man page and bash completion), the tc
#                   plugin into Debian's tc directory, the libfabric
#                   provider (libmrt-fi.so) into Debian's libfabric directory
#   make sparse     the modules under sparse (C=2)
#   make checkpatch scripts/checkpatch.pl --strict over our sources
#
# KVER is Debian's 6.1 kernel that has headers and a bootable image
# (scripts/kver); KDIR its build tree.  Both can be overridden.

KVER	?= $(shell $(CURDIR)/scripts/kver 2>/dev/null)
KDIR	?= /lib/modules/$(KVER)/build
W	?= 1

CC	?= gcc
USER_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter \
	       -Wmissing-prototypes -Itools/include -Iinclude -Iselftests/lib

NSCC_CORE   := net/nscc/nscc_core.c
DCQCN_CORE  := net/dcqcn/dcqcn_core.c
SWIFT_CORE  := net/swift/swift_core.c
CORES       := $(NSCC_CORE) $(DCQCN_CORE) $(SWIFT_CORE)
CORE_HDRS   := $(wildcard include/net/fabric/*.h tools/include/linux/*.h)
CCREPLAY    := tools/ccreplay/ccreplay
TC_PLUGIN   := tools/tc/q_fabric.so
FABCTL      := tools/fabctl/fabctl
MRTPERF     := tools/mrtperf/mrtperf
MRT_FAULT   := tools/bpf/mrt_fault.bpf.o
# The libfabric provider "mrt" (tools/libfabric), loaded by Debian's
# libfabric 1.17 from its provider directory or FI_PROVIDER_PATH.
FI_PROV     := tools/libfabric/libmrt-fi.so
FI_PROV_SRC := tools/libfabric/prov.c tools/libfabric/domain.c tools/libfabric/cq.c tools/libfabric/ep.c
FI_PROVDIR  ?= /usr/lib/$(shell $(CC) -print-multiarch)/libfabric
# Where Debian's tc looks for q_<kind>.so.
TC_LIBDIR   ?= /usr/lib/$(shell $(CC) -print-multiarch)/tc
UNIT_TESTS  := selftests/unit/nscc_test selftests/unit/dcqcn_test selftests/unit/swift_test \
	       selftests/unit/q_fabric_test selftests/unit/mrt_test
# mrt's pure protocol pieces (wire codec, PSN windows, RTO, EVs, the engine).
MRT_PURE    := net/mrt/wire.c net/mrt/psn.c net/mrt/ev.c net/mrt/engine.c
# libFuzzer targets (selftests/fuzz/), clang with ASan and UBSan.
FUZZ_CC     ?= clang
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Wno-unused-parameter \
	       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	       -Itools/include -Iinclude -Iselftests/lib
FUZZERS     := selftests/fuzz/fuzz_wire selftests/fuzz/fuzz_psn selftests/fuzz/fuzz_attr \
	       selftests/fuzz/fuzz_ccreplay selftests/fuzz/fuzz_tc
FUZZ_TIME   ?= 60
# fabsim: ns-3 3.37 (Debian's libns3-dev) with C++ glue only; the cores
# and mrt's pure pieces are compiled as C, unchanged.
NS3_PC      := ns3-core ns3-network ns3-internet ns3-point-to-point ns3-traffic-control \
	       ns3-applications
SIM         := sim/fabsim
SIM_CXXOBJS := sim/config.o sim/net.o sim/tcp.o sim/mrt.o sim/main.o
SIM_COBJS   := sim/cores.o sim/mrtsim.o sim/nscc_core.o sim/dcqcn_core.o sim/swift_core.o \
	       sim/mrt_engine.o sim/mrt_psn.o sim/mrt_ev.o sim/mrt_wire.o
# The NSCC core's entry points, at link time, go through sim/mrtsim.c
# (each destination's core on its own clock, a traced one written out).
SIM_WRAP    := $(foreach f,ack cack trim nack loss send probe_rtt,-Wl,--wrap=nscc_on_$(f))
CXX         ?= g++
SIM_CXXFLAGS := -std=c++17 -O2 -g -Wall -Wextra -Wno-unused-parameter
# Debian's .pc files carry a stray "-I/usr\;".
NS3_CFLAGS  = $$(pkg-config --cflags $(NS3_PC) | sed 's|-I/usr\\;||')
# Programs the VM suites run (built here, run in the guest over 9p).
VM_TOOLS    := selftests/vm/reliability/pktfuzz selftests/vm/libfabric/fi_mrt_test \
	       selftests/vm/libfabric/mpi_pingpong
MRT_HDRS    := net/mrt/wire.h net/mrt/psn.h net/mrt/ev.h net/mrt/engine.h net/mrt/attr_desc.h include/uapi/linux/mrt.h tools/include/asm/unaligned.h

.PHONY: all deps modules tools tests check demo install clean sparse checkpatch bench help \
	fuzz check-debug soak sim

all: modules tools tests $(SIM)

# Everything that compiles waits for deps (apt-get: the compiler, the kernel
# headers): under make -jN nothing may start before the headers exist.  An
# order-only prerequisite, so a finished deps never forces a rebuild.
modules sparse $(CCREPLAY) $(TC_PLUGIN) $(FABCTL) $(MRTPERF) $(MRT_FAULT) $(FI_PROV) $(UNIT_TESTS) \
	$(FUZZERS) $(VM_TOOLS) bench/microbench $(SIM_CXXOBJS) $(SIM_COBJS): | deps

help:
	@sed -n '3,/^#$$/p' Makefile | sed '$$d; s/^# \{0,1\}//'

deps:
	@scripts/deps

modules:
	@test -n "$(KVER)" || { echo "make: no Debian 6.1 kernel with headers found (scripts/kver)"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=$(W) modules

tools: $(CCREPLAY) $(TC_PLUGIN) $(FABCTL) $(MRTPERF) $(MRT_FAULT) $(FI_PROV)

tests: $(UNIT_TESTS) $(FUZZERS) $(VM_TOOLS)

$(CCREPLAY): tools/ccreplay/ccreplay.c tools/ccreplay/algo_nscc.c tools/ccreplay/algo_dcqcn.c \
	     tools/ccreplay/algo_swift.c tools/ccreplay/rows.h \
	     tools/ccreplay/ccreplay.h $(CORES) $(CORE_HDRS)
	$(CC) $(USER_CFLAGS) -Itools/ccreplay -o $@ $(filter %.c,$^)

$(TC_PLUGIN): tools/tc/q_fabric.c tools/tc/tc_plugin.h include/uapi/linux/fabric_sched.h
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Wno-unused-parameter -fPIC -shared \
		-Iinclude/uapi -o $@ $<

$(FABCTL): tools/fabctl/main.c tools/fabctl/nl.c tools/fabctl/json.c tools/fabctl/attr.c \
	   tools/fabctl/stats.c tools/fabctl/monitor.c tools/fabctl/sock.c \
	   tools/fabctl/mrt.c tools/fabctl/fabctl.h include/uapi/linux/fabric.h \
	   include/uapi/linux/mrt_nl.h
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -Wmissing-prototypes \
		-Iinclude/uapi -o $@ $(filter %.c,$^) $$(pkg-config --cflags --libs libmnl)

# The per-EV fault injector (tc-BPF), for clang's BPF target.
$(MRT_FAULT): tools/bpf/mrt_fault.bpf.c
	clang -O2 -g -Wall -target bpf -I/usr/include/$$(gcc -dumpmachine) -c -o $@ $<

# Only fi_prov_ini is exported (FI_EXT_INI); libfabric's symbols from -lfabric.
$(FI_PROV): $(FI_PROV_SRC) tools/libfabric/mrt_fi.h include/uapi/linux/mrt.h
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -Wmissing-prototypes \
		-fPIC -shared -fvisibility=hidden -Iinclude/uapi -o $@ $(FI_PROV_SRC) -lfabric -lpthread

selftests/vm/libfabric/fi_mrt_test: selftests/vm/libfabric/fi_mrt_test.c
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -Wmissing-prototypes \
		-o $@ $< -lfabric -lpthread

selftests/vm/libfabric/mpi_pingpong: selftests/vm/libfabric/mpi_pingpong.c
	mpicc -std=gnu11 -O2 -g -Wall -Wextra -o $@ $<

$(MRTPERF): tools/mrtperf/mrtperf.c
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -Wmissing-prototypes \
		-o $@ $<

# The tc plugin's test links the plugin with its own tc helpers.
selftests/unit/q_fabric_test: selftests/unit/q_fabric_test.c selftests/lib/tc_stub.c tools/tc/q_fabric.c \
			      tools/tc/tc_plugin.h include/uapi/linux/fabric_sched.h \
			      selftests/lib/tc_stub.h selftests/lib/tap.h
	$(CC) $(USER_CFLAGS) -Iinclude/uapi -Itools/tc -o $@ $(filter %.c,$^)

selftests/unit/mrt_test: selftests/unit/mrt_test.c $(MRT_PURE) $(NSCC_CORE) $(MRT_HDRS) $(CORE_HDRS) \
			 selftests/lib/tap.h
	$(CC) $(USER_CFLAGS) -fsanitize=address,undefined -fno-sanitize-recover=all \
		-o $@ $(filter %.c,$^)

selftests/vm/reliability/pktfuzz: selftests/vm/reliability/pktfuzz.c net/mrt/wire.c $(MRT_HDRS) \
				  $(CORE_HDRS)
	$(CC) $(USER_CFLAGS) -o $@ $(filter %.c,$^)

# selftests/unit/ALGO_test links net/ALGO/ALGO_core.c.
.SECONDEXPANSION:
selftests/unit/%_test: selftests/unit/%_test.c net/$$*/$$*_core.c $(CORE_HDRS) selftests/lib/tap.h
	$(CC) $(USER_CFLAGS) -o $@ $(filter %.c,$^)

selftests/fuzz/fuzz_wire: selftests/fuzz/fuzz_wire.c net/mrt/wire.c $(MRT_HDRS) \
			  selftests/fuzz/fuzz.h $(CORE_HDRS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)

selftests/fuzz/fuzz_psn: selftests/fuzz/fuzz_psn.c net/mrt/psn.c $(MRT_HDRS) \
			 selftests/fuzz/fuzz.h $(CORE_HDRS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)

selftests/fuzz/fuzz_attr: selftests/fuzz/fuzz_attr.c $(CORES) net/mrt/mrt_attrs.h net/mrt/ev.h net/mrt/attr_desc.h \
			  selftests/fuzz/fuzz.h $(CORE_HDRS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)

selftests/fuzz/fuzz_ccreplay: selftests/fuzz/fuzz_ccreplay.c tools/ccreplay/ccreplay.c \
			      tools/ccreplay/algo_nscc.c tools/ccreplay/algo_dcqcn.c \
			      tools/ccreplay/algo_swift.c tools/ccreplay/ccreplay.h $(CORES) \
			      selftests/fuzz/fuzz.h $(CORE_HDRS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Itools/ccreplay -o $@ \
		$(filter-out tools/ccreplay/ccreplay.c,$(filter %.c,$^))

selftests/fuzz/fuzz_tc: selftests/fuzz/fuzz_tc.c selftests/lib/tc_stub.c tools/tc/q_fabric.c \
			selftests/lib/tc_stub.h tools/tc/tc_plugin.h include/uapi/linux/fabric_sched.h \
			selftests/fuzz/fuzz.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Iinclude/uapi -Itools/tc -o $@ $(filter %.c,$^)

$(SIM_CXXOBJS): sim/%.o: sim/%.cc sim/fabsim.h sim/cores.h sim/mrtsim.h
	$(CXX) $(SIM_CXXFLAGS) $(NS3_CFLAGS) -c -o $@ $<

sim/cores.o: sim/cores.c sim/cores.h sim/internal.h tools/ccreplay/rows.h $(CORE_HDRS)
	$(CC) $(USER_CFLAGS) -c -o $@ $<

sim/%_core.o: net/$$*/$$*_core.c $(CORE_HDRS)
	$(CC) $(USER_CFLAGS) -c -o $@ $<

sim/mrtsim.o: sim/mrtsim.c sim/mrtsim.h sim/internal.h tools/ccreplay/rows.h net/mrt/mrt_attrs.h $(MRT_HDRS) \
	      $(CORE_HDRS)
	$(CC) $(USER_CFLAGS) -c -o $@ $<

sim/mrt_%.o: net/mrt/%.c $(MRT_HDRS) $(CORE_HDRS)
	$(CC) $(USER_CFLAGS) -c -o $@ $<

$(SIM): $(SIM_CXXOBJS) $(SIM_COBJS)
	$(CXX) -o $@ $^ $(SIM_WRAP) $$(pkg-config --libs $(NS3_PC))

sim: $(SIM) tools/ccreplay/ccreplay
	@scripts/deps sim
	@scripts/sim

fuzz: $(FUZZERS)
	@scripts/fuzz -t $(FUZZ_TIME)

check-debug: all
	@scripts/check-debug $(if $(KCSAN),--kcsan)

check: all
	@scripts/check

# The long forms' thousands of netns and module rounds log more than the
# default 128 KiB kernel log holds, and a log that wraps fails
# kernel-reports (reports may be lost): a 16 MiB one, as check-debug's.
soak: all
	@LONG=1 VM_RUN_APPEND="$${VM_RUN_APPEND:+$$VM_RUN_APPEND }log_buf_len=16M" \
		scripts/check reliability

demo: all
	@scripts/demo

bench/microbench: bench/microbench.c $(CORES) $(CORE_HDRS)
	$(CC) $(USER_CFLAGS) -DBENCH_CFLAGS='"$(USER_CFLAGS)"' -o $@ $(filter %.c,$^)

bench: all bench/microbench
	@scripts/deps bench
	@scripts/bench

# INSTALL_MOD_PATH stages the modules elsewhere (depmod -b follows it).
install: modules tools
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=updates modules_install
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KVER)
	install -D -m 0755 $(CCREPLAY) $(INSTALL_MOD_PATH)/usr/local/bin/ccreplay
	install -D -m 0644 $(TC_PLUGIN) $(INSTALL_MOD_PATH)$(TC_LIBDIR)/q_fabric.so
	install -D -m 0755 $(FABCTL) $(INSTALL_MOD_PATH)/usr/local/sbin/fabctl
	install -D -m 0644 Documentation/fabctl.8 $(INSTALL_MOD_PATH)/usr/local/share/man/man8/fabctl.8
	install -D -m 0644 tools/fabctl/fabctl.bash-completion \
		$(INSTALL_MOD_PATH)/usr/share/bash-completion/completions/fabctl
	install -D -m 0644 $(FI_PROV) $(INSTALL_MOD_PATH)$(FI_PROVDIR)/libmrt-fi.so

sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=$(W) C=2 modules

checkpatch:
	@scripts/checkpatch

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	rm -f $(CCREPLAY) $(TC_PLUGIN) $(FABCTL) $(MRTPERF) $(MRT_FAULT) $(FI_PROV) $(UNIT_TESTS) $(FUZZERS) \
		$(VM_TOOLS) bench/microbench $(SIM) $(SIM_CXXOBJS) $(SIM_COBJS)
