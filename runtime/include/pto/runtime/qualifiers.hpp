// Device qualifiers PTO kernels carry. On the host they mean nothing, so they expand to nothing.
#pragma once

#ifndef AICORE
#define AICORE
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cbuf__  // L1
#define __cbuf__
#endif
#ifndef __ca__  // L0A
#define __ca__
#endif
#ifndef __cb__  // L0B
#define __cb__
#endif
#ifndef __cc__  // L0C
#define __cc__
#endif
#ifndef __fbuf__  // the fixpipe's buffer
#define __fbuf__
#endif
#ifndef __biasbuf__
#define __biasbuf__
#endif
#ifndef __in__
#define __in__
#endif
#ifndef __out__
#define __out__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef PTO_INLINE
#define PTO_INLINE inline __attribute__((always_inline))
#endif
#ifndef PTO_INST
#define PTO_INST inline
#endif
#ifndef PTO_INTERNAL
#define PTO_INTERNAL PTO_INLINE
#endif
#ifndef GM_ADDR
#define GM_ADDR std::uint8_t*
#endif

// The ACL runtime's stream handle, which host launch wrappers of kernels take (and ignore here). The
// same typedef as CANN's acl headers, so including both is fine.
typedef void* aclrtStream;
