// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware timestamps of PTP v2 frames over Ethernet, for the tests.
 *
 *   hwtstamp config IF TX RX        SIOCSHWTSTAMP; prints what the driver applied
 *   hwtstamp get IF                 SIOCGHWTSTAMP
 *   hwtstamp send IF DST N [PHC]    sends N Sync messages (sequence IDs 0..N-1) to DST;
 *                                   with PHC (/dev/ptpN of IF), asks for each one's
 *                                   TX timestamp and prints it between the clock's
 *                                   readings before and after:
 *                                   "tx SEQ STAMP BEFORE AFTER" or "tx SEQ none"
 *   hwtstamp recv IF N PHC SECS     receives up to N Sync messages for SECS seconds and
 *                                   prints "rx SEQ STAMP NOW" (NOW: the clock's time
 *                                   once received) or "rx SEQ none"
 *
 * Times are nanoseconds of the PHC.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/errqueue.h>
#include <linux/if_packet.h>
#include <linux/net_tstamp.h>
#include <linux/sockios.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define PTP_LEN 44
#define FD_TO_CLOCKID(fd) ((~(clockid_t)(fd) << 3) | 3)

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static long long phc_ns(int fd)
{
	struct timespec ts;

	if (clock_gettime(FD_TO_CLOCKID(fd), &ts))
		die("clock_gettime");
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int open_phc(const char *path)
{
	int fd = open(path, O_RDWR);

	if (fd < 0)
		die(path);
	return fd;
}

static int hwtstamp_ioctl(const char *ifname, unsigned long req,
			  struct hwtstamp_config *cfg)
{
	struct ifreq ifr = { 0 };
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	int ret;

	if (s < 0)
		die("socket");
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)cfg;
	ret = ioctl(s, req, &ifr);
	close(s);
	return ret;
}

static int packet_socket(const char *ifname, int flags, unsigned char *mac)
{
	struct sockaddr_ll sll = { 0 };
	struct ifreq ifr = { 0 };
	int s = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_1588));

	if (s < 0)
		die("socket");
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(s, SIOCGIFHWADDR, &ifr))
		die("SIOCGIFHWADDR");
	memcpy(mac, ifr.ifr_hwaddr.sa_data, ETH_ALEN);
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_1588);
	sll.sll_ifindex = if_nametoindex(ifname);
	if (!sll.sll_ifindex)
		die(ifname);
	if (bind(s, (struct sockaddr *)&sll, sizeof(sll)))
		die("bind");
	if (flags && setsockopt(s, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags)))
		die("SO_TIMESTAMPING");
	return s;
}

/* The raw hardware timestamp of a control message, or -1. */
static long long hw_stamp(struct msghdr *msg)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_TIMESTAMPING) {
			struct timespec *ts = (struct timespec *)CMSG_DATA(c);

			if (ts[2].tv_sec || ts[2].tv_nsec)
				return ts[2].tv_sec * 1000000000LL + ts[2].tv_nsec;
		}
	}
	return -1;
}

/* Waits up to a second for the TX timestamp on the error queue. */
static long long tx_stamp(int s)
{
	char data[256], ctrl[512];
	struct iovec iov = { data, sizeof(data) };
	struct msghdr msg = { 0 };
	struct pollfd p = { s, POLLPRI, 0 };
	long long t;

	for (;;) {
		if (poll(&p, 1, 1000) <= 0)
			return -1;
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = ctrl;
		msg.msg_controllen = sizeof(ctrl);
		if (recvmsg(s, &msg, MSG_ERRQUEUE) < 0)
			return -1;
		t = hw_stamp(&msg);
		if (t >= 0)
			return t;
	}
}

static int cmd_send(const char *ifname, const char *dst, int n, const char *phc)
{
	int flags = phc ? SOF_TIMESTAMPING_TX_HARDWARE | SOF_TIMESTAMPING_RAW_HARDWARE : 0;
	unsigned char frame[ETH_HLEN + PTP_LEN] = { 0 };
	unsigned char mac[ETH_ALEN];
	int s = packet_socket(ifname, flags, mac);
	int fd = phc ? open_phc(phc) : -1;
	unsigned int d[ETH_ALEN];
	int i, k;

	if (sscanf(dst, "%x:%x:%x:%x:%x:%x", &d[0], &d[1], &d[2], &d[3], &d[4], &d[5]) != 6) {
		fprintf(stderr, "bad address %s\n", dst);
		return 2;
	}
	for (k = 0; k < ETH_ALEN; k++)
		frame[k] = d[k];
	memcpy(frame + ETH_ALEN, mac, ETH_ALEN);
	frame[12] = ETH_P_1588 >> 8;
	frame[13] = ETH_P_1588 & 0xff;
	/* Sync (message type 0), PTP version 2, length, sequence ID at 30. */
	frame[ETH_HLEN + 1] = 2;
	frame[ETH_HLEN + 3] = PTP_LEN;
	for (i = 0; i < n; i++) {
		long long before = 0, t;

		frame[ETH_HLEN + 30] = i >> 8;
		frame[ETH_HLEN + 31] = i & 0xff;
		if (fd >= 0)
			before = phc_ns(fd);
		if (send(s, frame, sizeof(frame), 0) != sizeof(frame))
			die("send");
		if (fd < 0) {
			usleep(100000);
			continue;
		}
		t = tx_stamp(s);
		if (t < 0)
			printf("tx %d none\n", i);
		else
			printf("tx %d %lld %lld %lld\n", i, t, before, phc_ns(fd));
		fflush(stdout);
	}
	return 0;
}

static int cmd_recv(const char *ifname, int n, const char *phc, int secs)
{
	int flags = SOF_TIMESTAMPING_RX_HARDWARE | SOF_TIMESTAMPING_RAW_HARDWARE;
	unsigned char mac[ETH_ALEN];
	int s = packet_socket(ifname, flags, mac);
	int fd = open_phc(phc);
	time_t end = time(NULL) + secs;
	int got = 0;

	while (got < n && time(NULL) < end) {
		unsigned char data[1600];
		char ctrl[512];
		struct iovec iov = { data, sizeof(data) };
		struct msghdr msg = { 0 };
		struct pollfd p = { s, POLLIN, 0 };
		long long t;
		ssize_t len;

		if (poll(&p, 1, 1000) <= 0)
			continue;
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = ctrl;
		msg.msg_controllen = sizeof(ctrl);
		len = recvmsg(s, &msg, 0);
		if (len < ETH_HLEN + PTP_LEN || data[ETH_HLEN] != 0)
			continue;
		t = hw_stamp(&msg);
		if (t < 0)
			printf("rx %d none\n", data[ETH_HLEN + 30] << 8 | data[ETH_HLEN + 31]);
		else
			printf("rx %d %lld %lld\n", data[ETH_HLEN + 30] << 8 | data[ETH_HLEN + 31],
			       t, phc_ns(fd));
		fflush(stdout);
		got++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct hwtstamp_config cfg = { 0 };

	if (argc == 5 && !strcmp(argv[1], "config")) {
		cfg.tx_type = atoi(argv[3]);
		cfg.rx_filter = atoi(argv[4]);
		if (hwtstamp_ioctl(argv[2], SIOCSHWTSTAMP, &cfg)) {
			printf("error %d\n", errno);
			return 1;
		}
		printf("tx %d rx %d\n", cfg.tx_type, cfg.rx_filter);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "get")) {
		if (hwtstamp_ioctl(argv[2], SIOCGHWTSTAMP, &cfg)) {
			printf("error %d\n", errno);
			return 1;
		}
		printf("tx %d rx %d\n", cfg.tx_type, cfg.rx_filter);
		return 0;
	}
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "send"))
		return cmd_send(argv[2], argv[3], atoi(argv[4]), argc == 6 ? argv[5] : NULL);
	if (argc == 6 && !strcmp(argv[1], "recv"))
		return cmd_recv(argv[2], atoi(argv[3]), argv[4], atoi(argv[5]));
	fprintf(stderr, "usage: see the comment at the top of hwtstamp.c\n");
	return 2;
}
