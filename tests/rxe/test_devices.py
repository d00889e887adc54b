"""`rdmabench devices` checked against ibv_devinfo and `rdma link` on the same guest."""
import json
import os
import re

import pytest

from conftest import kernel_devices, run

# rxe on lo and rxe on a veth have other GID tables: both layouts.
pytestmark = pytest.mark.layout("lo", "veth")


def devinfo(device):
    """Parses `ibv_devinfo -v -d DEV` into {port: {field: value, 'gids': {index: (gid, type)}}}."""
    text = run(["ibv_devinfo", "-v", "-d", device], check=True).stdout
    ports, port = {}, None
    for line in text.splitlines():
        m = re.match(r"\s*port:\s*(\d+)", line)
        if m:
            port = ports.setdefault(int(m.group(1)), {"gids": {}})
            continue
        if port is None:
            continue
        m = re.match(r"\s*GID\[\s*(\d+)\]:\s*(\S+?),?\s+(.*)$", line)
        if m:
            port["gids"][int(m.group(1))] = (m.group(2).rstrip(","), m.group(3).strip())
            continue
        m = re.match(r"\s*(\w+):\s*(.*)$", line)
        if m:
            port[m.group(1)] = m.group(2).strip()
    return ports


def test_json_names_rxe0_with_ethernet_and_roce_v2(devices_json):
    names = [d["name"] for d in devices_json["devices"]]
    assert "rxe0" in names
    rxe0 = next(d for d in devices_json["devices"] if d["name"] == "rxe0")
    assert rxe0["driver"] == "rxe"
    port = rxe0["ports"][0]
    assert port["link_layer"] == "Ethernet"
    assert port["state"] == "ACTIVE"
    assert any(g["type"] == "RoCE v2" for g in port["gids"])


def test_every_device_matches_ibv_devinfo(devices_json):
    assert sorted(d["name"] for d in devices_json["devices"]) == kernel_devices(), devices_json
    for dev in devices_json["devices"]:
        ref = devinfo(dev["name"])
        assert sorted(ref) == [p["port"] for p in dev["ports"]]
        for port in dev["ports"]:
            r = ref[port["port"]]
            assert r["state"].startswith("PORT_" + port["state"]), (r["state"], port["state"])
            assert r["link_layer"] == port["link_layer"]
            assert r["active_mtu"].startswith(str(port["active_mtu"]))
            assert r["max_mtu"].startswith(str(port["max_mtu"]))
            ours = {g["index"]: (g["gid"], g["type"]) for g in port["gids"]}
            theirs = {i: (gid, typ) for i, (gid, typ) in r["gids"].items()}
            # ibv_devinfo prints GIDs in its own (non-compressed) text form: compare as addresses.
            import ipaddress
            assert sorted(ours) == sorted(theirs)
            for i in ours:
                assert ipaddress.IPv6Address(ours[i][0]) == ipaddress.IPv6Address(theirs[i][0])
                assert ours[i][1] == theirs[i][1]


def test_netdevs_match_rdma_link(devices_json):
    links = json.loads(run(["rdma", "-j", "link", "show"], check=True).stdout)
    expected = {(l["ifname"], l["port"]): l.get("netdev", "") for l in links}
    ports = [(dev, port) for dev in devices_json["devices"] for port in dev["ports"]]
    assert sorted((dev["name"], port["port"]) for dev, port in ports) == sorted(expected), ports
    for dev, port in ports:
        assert port["netdev"] == expected[(dev["name"], port["port"])]


def test_default_gid_is_roce_v2_ipv4_mapped(devices_json):
    assert sorted(d["name"] for d in devices_json["devices"]) == kernel_devices(), devices_json
    ports = [port for dev in devices_json["devices"] for port in dev["ports"]]
    # Every device a port at least, each as its kernel device's ports in sysfs say.
    assert len(ports) == sum(len(os.listdir(f"/sys/class/infiniband/{d}/ports")) for d in kernel_devices()), ports
    for port in ports:
        idx = port["default_gid_index"]
        chosen = next(g for g in port["gids"] if g["index"] == idx)
        assert chosen["type"] == "RoCE v2"
        assert "ipv4" in chosen and chosen["gid"] == "::ffff:" + chosen["ipv4"]


@pytest.mark.layout("lo")
def test_loopback_gid_is_127_0_0_1(devices_json):
    port = devices_json["devices"][0]["ports"][0]
    chosen = next(g for g in port["gids"] if g["index"] == port["default_gid_index"])
    assert chosen["ipv4"] == "127.0.0.1"
    assert port["netdev"] == "lo"


@pytest.mark.layout("veth")
def test_two_host_layout_has_two_devices_on_the_veth_pair(devices_json):
    by_name = {d["name"]: d for d in devices_json["devices"]}
    assert {"rxe0", "rxe1"} <= set(by_name)
    addresses = {n: by_name[n]["ports"][0]["gids"] for n in ("rxe0", "rxe1")}
    assert any(g.get("ipv4") == "10.99.0.1" for g in addresses["rxe0"])
    assert any(g.get("ipv4") == "10.99.0.2" for g in addresses["rxe1"])


def test_text_output_marks_the_default_gid(rdmabench, devices_json):
    text = run([rdmabench, "devices"], check=True).stdout
    assert "default GID index" in text
    assert re.search(r"^\s+\*\s+\d+\s+RoCE v2", text, re.M)


def test_unknown_device_exits_3_and_names_existing_ones(rdmabench, devices_json):
    proc = run([rdmabench, "devices", "--device", "nosuchdev0"])
    assert proc.returncode == 3
    assert "nosuchdev0" in proc.stderr and "rxe0" in proc.stderr


def test_bad_option_is_a_usage_error(rdmabench):
    proc = run([rdmabench, "devices", "--bogus"])
    assert proc.returncode == 2
    assert "--help" in proc.stderr


def test_the_json_follows_the_devices_schema_version_advertises(rdmabench, devices_json):
    """version --json advertised a devices schema that did not exist."""
    import jsonschema
    from conftest import ROOT
    schema = json.loads((ROOT / "docs" / "devices.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(devices_json, schema)
    version = json.loads(run([rdmabench, "version", "--json"], check=True).stdout)
    assert version["devices_schema"] == devices_json["schema"] == schema["properties"]["schema"]["const"]
