# boards/boards.mk - boards booted under qemu-system and driven by LAVA
# (included by the Makefile; docs/TARGETS.md, "Boards"):
#
#   make board-image BOARD=aarch64-virt   build-board-BOARD/: kernel, dtb,
#                                         initramfs, qemu.sh (boards/image.sh)
#   make board-test BOARD=bamboo          the LAVA test definitions on it with
#                                         lava-run, checked (boards/lava.sh)
#   make board-ab BOARD=aarch64-virt A='bb.side=a' B='mitigations=off' N=3
#                                         N alternating boots of A and B, one
#                                         results directory, compare --by
#                                         (boards/ab.sh)
#   make board-boot BOARD=...             boot it on this console (Ctrl-A x quits)
#   make board-list                       the boards
#
# BOARD_CACHE (default /var/cache/boardbench-boards) keeps what is fetched
# and built outside the clone: Debian's .debs, the kernels built from
# Debian's linux source, BusyBox for PowerPC.
BOARD ?= aarch64-virt
BOARD_DIR = build-board-$(BOARD)
N ?= 3
A ?=
B ?=

.PHONY: board-image board-test board-ab board-boot board-list

board-list:
	@sh -c '. boards/table.sh && board_rows | cut -c1-120'

board-image:
	sh boards/image.sh $(BOARD) $(BOARD_DIR)

board-test: $(BIN)
	@[ -f $(BOARD_DIR)/board.env ] || sh boards/image.sh $(BOARD) $(BOARD_DIR)
	BOARD_HOST_BB=$(abspath $(BIN)) sh boards/lava.sh $(BOARD) $(BOARD_DIR)

board-ab: $(BIN)
	@[ -f $(BOARD_DIR)/board.env ] || sh boards/image.sh $(BOARD) $(BOARD_DIR)
	BOARD_HOST_BB=$(abspath $(BIN)) sh boards/ab.sh $(BOARD) $(BOARD_DIR) '$(A)' '$(B)' $(N)

board-boot:
	@[ -f $(BOARD_DIR)/board.env ] || sh boards/image.sh $(BOARD) $(BOARD_DIR)
	$(BOARD_DIR)/qemu.sh
