"""What runs beside an RDMA device, on a host or in a tools/rxe-vm guest: the one server
harness, a server and client pair, the guest's timing, and the guest sides of
tools/vs-perftest (perftest beside rdmabench: bandwidth, message rate, cost). Not installed."""
