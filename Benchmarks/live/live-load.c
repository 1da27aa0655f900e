// live-load: holds many `GET /api/live` streams open on one thread (epoll), runs a command that
// changes the shop, and times when its event reaches each stream. Built and run by scripts/bench-live.
//
//   live-load HOST PORT STREAMS [--server-pid PID] [--change CMD] [--event NAME] [--timeout SECONDS]
//
// Every stream must answer 200 and send the state as it is (the `vending` event ends it) before
// the change is made. Prints `key value…` lines: opened, rss_kib (the server's VmRSS with every
// stream open), change (how long CMD took), reached, from_start and from_exit (seconds from CMD's
// start and from its exit to the event on each stream: p50 p90 p99 max), ended_early.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum state { IDLE, CONNECTING, WAITING, READY, DONE, FAILED };

struct stream {
    int fd;
    enum state state;
    int answered;      // the status line was read
    char tail[32];     // the end of what was read, so a name split across reads is still found
    int tail_len;
    double reached_at; // when the change's event arrived
};

static struct stream *streams;
static int count, epoll_fd;
static struct sockaddr_in server;
static char request[256];
static const char *change_event = "stock";

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void fail(const char *what) {
    perror(what);
    exit(2);
}

static void start_connecting(int i) {
    struct stream *s = &streams[i];
    s->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (s->fd < 0) fail("socket (raise ulimit -n)");
    if (connect(s->fd, (struct sockaddr *)&server, sizeof server) < 0 && errno != EINPROGRESS) fail("connect");
    s->state = CONNECTING;
    struct epoll_event ev = {.events = EPOLLOUT | EPOLLIN | EPOLLRDHUP, .data.u32 = (unsigned)i};
    if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, s->fd, &ev) < 0) fail("epoll_ctl");
}

static void mark_failed(struct stream *s, int *pending) {
    if (s->state == CONNECTING || s->state == WAITING) (*pending)--;
    s->state = FAILED;
    epoll_ctl(epoll_fd, EPOLL_CTL_DEL, s->fd, NULL);
    close(s->fd);
}

// Whether `name` occurs in what was kept of the stream plus `data`; keeps the new tail.
static int saw(struct stream *s, const char *data, size_t len, const char *name) {
    static char joined[65536 + 64];
    memcpy(joined, s->tail, s->tail_len);
    memcpy(joined + s->tail_len, data, len);
    size_t total = s->tail_len + len;
    char needle[64];
    snprintf(needle, sizeof needle, "event: %s\n", name);
    int found = memmem(joined, total, needle, strlen(needle)) != NULL;
    s->tail_len = total < sizeof s->tail ? (int)total : (int)sizeof s->tail;
    memcpy(s->tail, joined + total - s->tail_len, s->tail_len);
    return found;
}

// Reads what a stream has; returns 0 when the server ended it.
static int read_stream(struct stream *s, int *pending, int *refused) {
    char data[65536];
    for (;;) {
        ssize_t n = read(s->fd, data, sizeof data);
        if (n == 0) return 0;
        if (n < 0) return errno == EAGAIN ? 1 : 0;
        if (!s->answered) {
            s->answered = 1;
            if (n < 12 || memcmp(data, "HTTP/1.1 200", 12) != 0) {
                (*refused)++;
                return 0;
            }
        }
        if (s->state == WAITING && saw(s, data, n, "vending")) {
            s->state = READY;
            (*pending)--;
        } else if (s->state == READY && saw(s, data, n, change_event)) {
            s->state = DONE;
            s->reached_at = now();
        }
    }
}

// One pass over the ready sockets; returns how many streams the server ended.
static int poll_once(int timeout_ms, int *pending, int *refused) {
    struct epoll_event events[1024];
    int n = epoll_wait(epoll_fd, events, 1024, timeout_ms), ended = 0;
    for (int k = 0; k < n; k++) {
        struct stream *s = &streams[events[k].data.u32];
        if (s->state == CONNECTING && (events[k].events & EPOLLOUT)) {
            int error = 0;
            socklen_t size = sizeof error;
            getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &error, &size);
            if (error || write(s->fd, request, strlen(request)) < 0) {
                mark_failed(s, pending);
                continue;
            }
            s->state = WAITING;
            struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP, .data.u32 = events[k].data.u32};
            epoll_ctl(epoll_fd, EPOLL_CTL_MOD, s->fd, &ev);
        }
        if ((events[k].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) && s->state != FAILED
            && !read_stream(s, pending, refused)) {
            if (s->state == READY || s->state == DONE) ended++;
            mark_failed(s, pending);
        }
    }
    return ended;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void print_spread(const char *label, double *values, int n) {
    if (n == 0) return (void)printf("%s - - - -\n", label);
    qsort(values, n, sizeof *values, by_value);
#define AT(p) values[(int)((n - 1) * (p) + 0.5)]
    printf("%s %.3f %.3f %.3f %.3f\n", label, AT(0.50), AT(0.90), AT(0.99), values[n - 1]);
}

static long rss_kib(const char *pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%s/status", pid);
    FILE *f = fopen(path, "r");
    long kib = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld", &kib) == 1) break;
    fclose(f);
    return kib;
}

// Opens every stream, at most `window` still connecting or waiting for their first state at once
// (the server's accept backlog is finite), until all are ready or `deadline`.
static int open_all(int window, double deadline, int *refused) {
    int next = 0, pending = 0, ready = 0;
    while (now() < deadline) {
        while (next < count && pending < window) {
            start_connecting(next++);
            pending++;
        }
        poll_once(50, &pending, refused);
        ready = 0;
        for (int i = 0; i < next; i++) ready += streams[i].state == READY;
        int failed = 0;
        for (int i = 0; i < next; i++) failed += streams[i].state == FAILED;
        if (ready + failed == count) break;
    }
    return ready;
}

static pid_t run(const char *command) {
    pid_t child = fork();
    if (child == 0) {
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    return child;
}

// Runs `command` and reads until every ready stream has its event or `timeout` passes.
static void time_change(const char *command, double timeout, int ready, int *refused) {
    int pending = 0, reached = 0, ended = 0, status = 0;
    double started = now(), exited = -1;
    pid_t child = run(command);
    while (now() - started < timeout && (reached < ready || exited < 0)) {
        ended += poll_once(exited < 0 ? 2 : 50, &pending, refused);
        if (exited < 0 && waitpid(child, &status, WNOHANG) == child) exited = now();
        reached = 0;
        for (int i = 0; i < count; i++) reached += streams[i].state == DONE;
    }
    if (exited < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) fprintf(stderr, "live-load: the change failed\n");
    double *from_start = malloc(sizeof(double) * (reached + 1)), *from_exit = malloc(sizeof(double) * (reached + 1));
    int n = 0;
    for (int i = 0; i < count; i++)
        if (streams[i].state == DONE) {
            from_start[n] = streams[i].reached_at - started;
            from_exit[n++] = streams[i].reached_at - exited;
        }
    printf("change %.3f\n", exited - started);
    printf("reached %d %d\n", reached, ready);
    print_spread("from_start", from_start, n);
    print_spread("from_exit", from_exit, n);
    printf("ended_early %d\n", ended);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s HOST PORT STREAMS [--server-pid PID] [--change CMD] [--event NAME] [--timeout S]\n",
                argv[0]);
        return 2;
    }
    const char *pid = NULL, *command = NULL;
    double timeout = 60;
    for (int i = 4; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--server-pid")) pid = argv[i + 1];
        else if (!strcmp(argv[i], "--change")) command = argv[i + 1];
        else if (!strcmp(argv[i], "--event")) change_event = argv[i + 1];
        else if (!strcmp(argv[i], "--timeout")) timeout = atof(argv[i + 1]);
    }
    count = atoi(argv[3]);
    server.sin_family = AF_INET;
    server.sin_port = htons(atoi(argv[2]));
    if (inet_pton(AF_INET, argv[1], &server.sin_addr) != 1) fail("address");
    snprintf(request, sizeof request, "GET /api/live HTTP/1.1\r\nHost: %s:%s\r\nAccept: text/event-stream\r\n\r\n",
             argv[1], argv[2]);
    streams = calloc(count, sizeof *streams);
    if ((epoll_fd = epoll_create1(0)) < 0) fail("epoll_create1");

    int refused = 0;
    double started = now();
    int ready = open_all(200, started + timeout, &refused);
    printf("opened %d %d %.3f refused %d\n", ready, count, now() - started, refused);
    if (pid) {
        // A moment for the server to settle (a heartbeat or two) before its memory is read.
        double settle = now() + 3;
        int pending = 0;
        while (now() < settle) poll_once(100, &pending, &refused);
        printf("rss_kib %ld\n", rss_kib(pid));
    }
    if (command) time_change(command, timeout, ready, &refused);
    if (pid) printf("rss_after_kib %ld\n", rss_kib(pid));
    fflush(stdout);
    for (int i = 0; i < count; i++)
        if (streams[i].state != FAILED && streams[i].state != IDLE) close(streams[i].fd);
    return ready == count ? 0 : 1;
}
