"""The figure of an `rdmabench mesh --traffic ... --out` report: one bar per host, what its NIC
carried (sent + received) in its best round, in Gb/s (higher is better), with its worst round
as a mark on the bar and the slow line (min_fraction of the median) across; slow hosts' bars
red. What is drawn is whatever the report's traffic section says."""
from rdmabench_tools.mesh_figures import GBITS, guest_line, host_list

MOST_LABELLED = 64  # beyond this many hosts the rank labels thin out


def traffic_figure(plt, doc):
    """One bar chart of the hosts' loads; None when no host took part."""
    t = doc["traffic"]
    hosts = t["hosts"]
    if not hosts:
        return None
    ranks = [h["rank"] for h in hosts]
    best = [h["best_bytes_per_second"] * GBITS for h in hosts]
    worst = [h["worst_bytes_per_second"] * GBITS for h in hosts]
    colours = ["tab:red" if h["slow"] else "tab:blue" for h in hosts]
    fig, ax = plt.subplots(figsize=(max(6.0, min(16.0, 0.35 * len(hosts) + 3)), 4.2),
                           layout="constrained")
    ax.bar(range(len(hosts)), best, color=colours, label="best round (sent + received)")
    ax.scatter(range(len(hosts)), worst, color="black", marker="_", s=120, zorder=3,
               label="worst round")
    ax.axhline(t["threshold"] * GBITS, color="tab:red", linestyle="--", linewidth=1,
               label=f"slow below {t['min_fraction']:g} x median")
    step = max(1, len(hosts) // MOST_LABELLED)
    ax.set_xticks(range(0, len(hosts), step))
    ax.set_xticklabels([str(r) for r in ranks[::step]], fontsize=8)
    ax.set_xlabel("host (rank)")
    ax.set_ylabel("Gb/s through the NIC (higher is better)")
    ax.set_ylim(0, max(best + worst + [t["threshold"] * GBITS]) * 1.3 or 1)
    ax.legend(fontsize=8, loc="upper center", ncol=3)
    verdict = doc["verdict"]
    ax.set_title(f"rdmabench mesh --traffic {t['pattern']}: {len(hosts)} hosts, fan {t['fan']}, "
                 f"{t['streams']} stream(s) a flow, {t['flows']} flows\n"
                 f"slow hosts: {host_list(verdict['slow_hosts'])}; "
                 f"failed flows: {t['failed_flows']}" + guest_line(doc["hosts"]), fontsize=10)
    return fig
