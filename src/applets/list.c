/* list.c - the applet tables, in the order of the one list (applets.def):
 * a pointer to the descriptor of each applet of this build (core/applet.h),
 * and, where the analysis engine is built, to the host-side knowledge of
 * each applet that has some (analysis/host.h, NAME_host.c).  Which applets
 * a build has ($(BUILD)/applets_built.h: BB_BUILT_NAME, BB_HOST_NAME 1 or
 * 0, BB_ANALYSIS) is the Makefile's choice (APPLETS=); the others are not
 * even declared here, so their code is not linked. */
#include "core/applet.h"
#include "applets_built.h"
#if BB_ANALYSIS
#include "analysis/host.h"
#endif

#include <string.h>

#define BB_IF(c, ...) BB_IF_(c, __VA_ARGS__)
#define BB_IF_(c, ...) BB_IF_##c(__VA_ARGS__)
#define BB_IF_1(...) __VA_ARGS__
#define BB_IF_0(...)

#define APPLET(name, set) BB_IF(BB_BUILT_##name, extern const struct bb_applet bb_applet_##name;)
#include "applets/applets.def"
#undef APPLET

const struct bb_applet *const bb_applets[] = {
#define APPLET(name, set) BB_IF(BB_BUILT_##name, &bb_applet_##name, )
#include "applets/applets.def"
#undef APPLET
	NULL,
};

const struct bb_applet *bb_applet_find(const char *name)
{
	for (size_t i = 0; bb_applets[i]; i++)
		if (strcmp(bb_applets[i]->name, name) == 0)
			return bb_applets[i];
	return NULL;
}

#if BB_ANALYSIS
#define APPLET(name, set) BB_IF(BB_HOST_##name, extern const struct bb_host bb_host_##name;)
#include "applets/applets.def"
#undef APPLET

const struct bb_host *const bb_hosts[] = {
#define APPLET(name, set) BB_IF(BB_HOST_##name, &bb_host_##name, )
#include "applets/applets.def"
#undef APPLET
	NULL,
};

const struct bb_host *bb_host_find(const char *applet)
{
	for (size_t i = 0; bb_hosts[i]; i++)
		if (strcmp(bb_hosts[i]->applet, applet) == 0)
			return bb_hosts[i];
	return NULL;
}
#endif
