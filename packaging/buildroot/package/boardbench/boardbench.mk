################################################################################
#
# boardbench
#
################################################################################

BOARDBENCH_VERSION = 0.1.0
# Built from the source tree this BR2_EXTERNAL tree is part of
# (packaging/buildroot/ in it).  boardbench has no public release location
# yet; for a release tarball from `make dist`, which records its revision
# in a VERSION file, set BOARDBENCH_SITE_METHOD = file and BOARDBENCH_SITE
# to its directory, and add its sha256 to boardbench.hash.
BOARDBENCH_SITE = $(BR2_EXTERNAL_BOARDBENCH_PATH)/../..
BOARDBENCH_SITE_METHOD = local
BOARDBENCH_DEPENDENCIES = host-pkgconf

# compare and report need cJSON; without it they are left out and say so.
ifeq ($(BR2_PACKAGE_CJSON),y)
BOARDBENCH_DEPENDENCIES += cjson
BOARDBENCH_MAKE_OPTS += CJSON=1
else
BOARDBENCH_MAKE_OPTS += CJSON=0
endif

ifeq ($(BR2_STATIC_LIBS),y)
BOARDBENCH_MAKE_OPTS += STATIC=1
endif

BOARDBENCH_INSTALL_TARGETS = install-bin
ifeq ($(BR2_PACKAGE_BOARDBENCH_APPLET_LINKS),y)
BOARDBENCH_INSTALL_TARGETS += install-links
endif

define BOARDBENCH_BUILD_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(TARGET_CONFIGURE_OPTS) \
		$(BOARDBENCH_MAKE_OPTS)
endef

define BOARDBENCH_INSTALL_TARGET_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(TARGET_CONFIGURE_OPTS) \
		$(BOARDBENCH_MAKE_OPTS) DESTDIR=$(TARGET_DIR) PREFIX=/usr \
		$(BOARDBENCH_INSTALL_TARGETS)
endef

$(eval $(generic-package))
