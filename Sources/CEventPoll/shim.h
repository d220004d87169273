// Linux event notification (epoll, eventfd) for the HTTP server's event loops; Glibc's
// Swift module does not include these headers.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

// accept4 is declared only under _GNU_SOURCE.
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

/// Accepts a connection as a non-blocking, close-on-exec descriptor.
static inline int cep_accept_nonblocking(int listener) {
    return accept4(listener, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
