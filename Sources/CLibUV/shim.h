#ifndef UNCENTER_CLIBUV_SHIM_H
#define UNCENTER_CLIBUV_SHIM_H
#include <uv.h>
#endif
