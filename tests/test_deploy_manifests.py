"""deploy/k8s: every manifest passes kubernetes-validate --strict, and says what it must.

The overlay is rendered here by a small reader of the kustomize features it uses
(resources, a ConfigMap generator, namespace, images, JSON 6902 patches); where kubectl is
installed, its own kustomize must agree.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from tests.serving_helpers import BIN, ROOT

K8S = ROOT / "deploy" / "k8s"
BASE = K8S / "base"
NGINX_CONF = BASE / "nginx.conf"
OVERLAYS = sorted(p for p in (K8S / "overlays").iterdir() if p.is_dir())
CLUSTER_SCOPED = {"Namespace"}


# --- a small kustomize ------------------------------------------------------------------


def _pointer(path: str) -> list[str | int]:
    parts: list[str | int] = []
    for raw in path.lstrip("/").split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        parts.append(int(part) if part.isdigit() else part)
    return parts


def _apply(doc: dict[str, Any], operations: list[dict[str, Any]]) -> None:
    for operation in operations:
        *parents, last = _pointer(operation["path"])
        target: Any = doc
        for part in parents:
            target = target[part]
        if operation["op"] == "remove":
            del target[last]
        elif operation["op"] == "replace":
            target[last]  # noqa: B018  (replace needs the member to exist)
            target[last] = operation["value"]
        elif operation["op"] == "add":
            if isinstance(target, list):
                target.insert(len(target) if last == "-" else int(last), operation["value"])
            else:
                target[last] = operation["value"]
        else:
            raise AssertionError(f"patch op {operation['op']} is not read here")


def config_map_hash(data: dict[str, str]) -> str:
    """kustomize's name suffix: SHA-256 of the ConfigMap as Go's json.Marshal writes it
    (sorted keys, HTML characters escaped; the name is left empty), 10 hex digits with
    0, 1, 3, a and e spelled g, h, k, m and t."""
    encoded = json.dumps(
        {"data": data, "kind": "ConfigMap", "name": ""},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        encoded = encoded.replace(char, escaped)
    digest = hashlib.sha256(encoded.encode()).hexdigest()[:10]
    return digest.translate(str.maketrans("013ae", "ghkmt"))


def generate_config_maps(folder: Path, generators: list[dict[str, Any]]) -> dict[str, Any]:
    """The ConfigMaps of a configMapGenerator, by the name the manifests use for each."""
    made = {}
    for generator in generators:
        assert set(generator) <= {"name", "files", "options"}, generator
        assert set(generator.get("options", {})) <= {"labels"}, generator
        data = {}
        for entry in generator["files"]:
            key, _, source = entry.rpartition("=")
            data[key or Path(source).name] = (folder / source).read_text()
        metadata: dict[str, Any] = {"name": f"{generator['name']}-{config_map_hash(data)}"}
        if "labels" in generator.get("options", {}):
            metadata["labels"] = generator["options"]["labels"]
        made[generator["name"]] = {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": metadata,
            "data": data,
        }
    return made


def render(folder: Path) -> list[dict[str, Any]]:
    spec = yaml.safe_load((folder / "kustomization.yaml").read_text())
    known = {
        "apiVersion",
        "kind",
        "resources",
        "configMapGenerator",
        "namespace",
        "images",
        "patches",
    }
    assert set(spec) <= known, f"kustomize features this test does not read: {set(spec) - known}"
    docs: list[dict[str, Any]] = []
    for resource in spec.get("resources", []):
        path = folder / resource
        if path.is_dir():
            docs.extend(render(path))
        else:
            docs.extend(d for d in yaml.safe_load_all(path.read_text()) if d)
    docs = copy.deepcopy(docs)
    generated = generate_config_maps(folder, spec.get("configMapGenerator", []))
    docs.extend(generated.values())
    # The pods' references follow the generated (hashed) names.
    for doc in docs:
        for volume in pod_spec(doc).get("volumes", []):
            if "configMap" in volume and volume["configMap"]["name"] in generated:
                made = generated[volume["configMap"]["name"]]
                volume["configMap"]["name"] = made["metadata"]["name"]
    for patch in spec.get("patches", []):
        target = patch["target"]
        matched = [
            d
            for d in docs
            if d["kind"] == target["kind"] and d["metadata"]["name"] == target["name"]
        ]
        assert len(matched) == 1, f"patch target {target} matches {len(matched)} resources"
        _apply(matched[0], yaml.safe_load(patch["patch"]))
    for image in spec.get("images", []):
        for doc in docs:
            for container in pod_spec(doc).get("containers", []):
                name, _, _ = container["image"].partition(":")
                if name == image["name"]:
                    container["image"] = f"{image.get('newName', name)}:{image['newTag']}"
    if "namespace" in spec:
        for doc in docs:
            if doc["kind"] not in CLUSTER_SCOPED:
                doc["metadata"]["namespace"] = spec["namespace"]
    return docs


def pod_spec(doc: dict[str, Any]) -> dict[str, Any]:
    if doc["kind"] == "Deployment":
        spec: dict[str, Any] = doc["spec"]["template"]["spec"]
        return spec
    return {}


def one(docs: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    found = [d for d in docs if d["kind"] == kind]
    assert len(found) == 1, f"one {kind}, found {len(found)}"
    return found[0]


ALL = [pytest.param(BASE, id="base")] + [pytest.param(p, id=p.name) for p in OVERLAYS]


# --- kubernetes-validate --strict ----------------------------------------------------------


def validate(docs: list[dict[str, Any]], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    out = tmp_path / "rendered.yaml"
    out.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    return subprocess.run(
        [str(BIN / "kubernetes-validate"), "--strict", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("folder", ALL)
def test_every_manifest_passes_strict_validation(folder: Path, tmp_path: Path) -> None:
    docs = render(folder)
    result = validate(docs, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    passed = re.findall(r"passed for resource (\S+)", result.stdout)
    # Every manifest but the ServiceMonitor (a CRD, checked below) was checked, none skipped.
    expected = {f"{d['kind'].lower()}/{d['metadata']['name']}" for d in docs}
    assert set(passed) == expected - {"servicemonitor/fire-control"}
    warnings = [line for line in result.stdout.splitlines() if line.startswith("WARN")]
    assert len(warnings) == 1 and "ServiceMonitor" in warnings[0], warnings


def test_strict_validation_refuses_an_unknown_field(tmp_path: Path) -> None:
    docs = render(BASE)
    deployment = one(docs, "Deployment")
    deployment["spec"]["template"]["spec"]["containers"][0]["readOnlyRootFileSystem"] = True
    result = validate(docs, tmp_path)
    assert result.returncode != 0 and "readOnlyRootFileSystem" in result.stdout + result.stderr


# The ServiceMonitor's members this deploy uses, as the Prometheus Operator's CRD types them
# (monitoring.coreos.com/v1); unknown members are refused, as --strict does.
SERVICE_MONITOR = {
    "type": "object",
    "additionalProperties": False,
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "properties": {
        "apiVersion": {"const": "monitoring.coreos.com/v1"},
        "kind": {"const": "ServiceMonitor"},
        "metadata": {"type": "object"},
        "spec": {
            "type": "object",
            "additionalProperties": False,
            "required": ["selector", "endpoints"],
            "properties": {
                "selector": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {"matchLabels": {"type": "object"}},
                },
                "endpoints": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["port"],
                        "properties": {
                            "port": {"type": "string"},
                            "path": {"type": "string"},
                            "interval": {"type": "string", "pattern": "^[0-9]+(ms|s|m|h)$"},
                            "scrapeTimeout": {"type": "string", "pattern": "^[0-9]+(ms|s|m|h)$"},
                        },
                    },
                },
            },
        },
    },
}


@pytest.mark.parametrize("folder", ALL)
def test_the_service_monitor_scrapes_the_metrics_port(folder: Path) -> None:
    docs = render(folder)
    monitor = one(docs, "ServiceMonitor")
    jsonschema.validate(monitor, SERVICE_MONITOR)
    service = one(docs, "Service")
    assert (
        monitor["spec"]["selector"]["matchLabels"].items() <= service["metadata"]["labels"].items()
    )
    ports = {p["name"]: p for p in service["spec"]["ports"]}
    endpoint = monitor["spec"]["endpoints"][0]
    assert endpoint["path"] == "/metrics" and ports[endpoint["port"]]["targetPort"] == "app"
    # That port is the app's own, open to the monitoring namespace alone; the clients' port
    # is nginx's, which refuses /metrics (a 404 problem; tests/test_nginx_sidecar.py).
    pod = pod_spec(one(docs, "Deployment"))
    app = next(c for c in pod["containers"] if c["name"] == "fire-control")
    assert "app" in {p["name"] for p in app["ports"]}
    policy = one(docs, "NetworkPolicy")
    for rule in policy["spec"]["ingress"]:
        if any(p["port"] == "app" for p in rule["ports"]):
            assert [f["namespaceSelector"]["matchLabels"] for f in rule["from"]] == [
                {"kubernetes.io/metadata.name": "monitoring"}
            ]
    assert ports["http"]["targetPort"] == "http"
    conf = one(docs, "ConfigMap")["data"]["nginx.conf"]
    assert re.search(r"location /metrics \{\s*return 404;\s*\}", conf)


# --- what the manifests must say -------------------------------------------------------------


@pytest.mark.parametrize("folder", ALL)
def test_the_pods_are_locked_down_probed_and_bounded(folder: Path) -> None:
    docs = render(folder)
    deployment = one(docs, "Deployment")
    pod = pod_spec(deployment)
    assert deployment["spec"]["selector"]["matchLabels"].items() <= (
        deployment["spec"]["template"]["metadata"]["labels"].items()
    )
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["automountServiceAccountToken"] is False
    for container in pod["containers"]:
        security = container["securityContext"]
        assert security["readOnlyRootFilesystem"] is True, container["name"]
        assert security["allowPrivilegeEscalation"] is False, container["name"]
        assert security["capabilities"]["drop"] == ["ALL"], container["name"]
        for kind in ("requests", "limits"):
            assert {"cpu", "memory"} <= set(container["resources"][kind]), container["name"]
        assert "readinessProbe" in container and "livenessProbe" in container

    app = next(c for c in pod["containers"] if c["name"] == "fire-control")
    env = {e["name"]: e["value"] for e in app["env"]}
    ports = {p["name"]: p["containerPort"] for p in app["ports"]}
    assert int(env["PORT"]) == ports["app"]
    assert app["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "app"}
    assert app["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "app"}
    # One sync worker per core the container may use.
    assert int(env["WEB_CONCURRENCY"]) == int(app["resources"]["limits"]["cpu"])

    # The metrics folder and /tmp are in-memory volumes: the root filesystem stays read-only.
    volumes = {v["name"]: v for v in pod["volumes"]}
    mounts = {m["mountPath"]: m["name"] for m in app["volumeMounts"]}
    for path in (env["PROMETHEUS_MULTIPROC_DIR"], "/tmp"):
        assert volumes[mounts[path]]["emptyDir"]["medium"] == "Memory", path

    # The keys come from a Secret the manifests name and never contain.
    keys = volumes[mounts[str(Path(env["FIRECONTROL_SIGNING_KEYS_FILE"]).parent)]]
    assert keys["secret"]["secretName"] == "fire-control-keys"
    assert (
        Path(env["FIRECONTROL_SEAL_KEYS_FILE"]).parent
        == Path(env["FIRECONTROL_SIGNING_KEYS_FILE"]).parent
    )
    assert not [d for d in docs if d["kind"] == "Secret"]
    text = json.dumps(docs)
    assert '"d":' not in text and "PRIVATE KEY" not in text

    # SIGTERM's grace covers the preStop pause and gunicorn's graceful_timeout; gunicorn
    # pauses longer than nginx, its only client, so nginx has quit (and finished the
    # requests it had passed on) before gunicorn is told to stop.
    config = (ROOT / "deploy" / "gunicorn.conf.py").read_text()
    graceful = int(re.search(r"^graceful_timeout = (\d+)", config, re.M).group(1))  # type: ignore[union-attr]
    pause = app["lifecycle"]["preStop"]["sleep"]["seconds"]
    assert pod["terminationGracePeriodSeconds"] > graceful + pause
    nginx = next(c for c in pod["containers"] if c["name"] == "nginx")
    assert 0 < nginx["lifecycle"]["preStop"]["sleep"]["seconds"] < pause


@pytest.mark.parametrize("folder", ALL)
def test_only_nginx_faces_clients_and_it_buffers(folder: Path) -> None:
    docs = render(folder)
    pod = pod_spec(one(docs, "Deployment"))
    containers = {c["name"]: c for c in pod["containers"]}
    nginx, app = containers["nginx"], containers["fire-control"]
    service = one(docs, "Service")
    targets = {p["name"]: p["targetPort"] for p in service["spec"]["ports"]}
    assert targets["http"] == "http" and nginx["ports"][0]["name"] == "http"

    config_map = one(docs, "ConfigMap")
    conf = config_map["data"]["nginx.conf"]
    # The pods get the very file tests/test_nginx_sidecar.py runs nginx with.
    assert conf == NGINX_CONF.read_text()
    app_port = next(p["containerPort"] for p in app["ports"] if p["name"] == "app")
    # Every location proxies to the one upstream, gunicorn on the pod's loopback.
    upstream = re.search(r"upstream (\w+) \{\s*server ([\d.]+):(\d+)", conf)
    assert upstream and upstream.group(2, 3) == ("127.0.0.1", str(app_port))
    proxied = re.findall(r"proxy_pass (\S+);", conf)
    assert proxied and set(proxied) == {f"http://{upstream.group(1)}"}
    assert "proxy_request_buffering on;" in conf and "proxy_buffering on;" in conf
    assert "proxy_request_buffering off" not in conf and "proxy_buffering off" not in conf
    assert re.search(r"client_max_body_size \d+k;", conf)
    assert "X-Request-Id" in conf
    # One access log a request: nginx's (JSON on stdout, with the answer's request id),
    # gunicorn's off.
    assert re.search(r"^\s*log_format fc_json escape=json$", conf, re.M)
    assert re.findall(r"^\s*access_log (.+);", conf, re.M) == ["/dev/stdout fc_json"]
    app_env = {e["name"]: e["value"] for e in app["env"]}
    assert app_env["ACCESS_LOG"] == "off"
    listen = re.findall(r"^\s*listen (\d+);", conf, re.M)
    assert listen == [str(nginx["ports"][0]["containerPort"])]
    mount = next(m for m in nginx["volumeMounts"] if m["mountPath"] == "/etc/nginx/nginx.conf")
    volume = next(v for v in pod["volumes"] if v["name"] == mount["name"])
    assert volume["configMap"]["name"] == config_map["metadata"]["name"]

    # Clients reach nginx's port; only the monitoring namespace reaches the app port; no
    # way out.
    policy = one(docs, "NetworkPolicy")
    assert policy["spec"]["policyTypes"] == ["Ingress", "Egress"] and policy["spec"]["egress"] == []
    open_rules = [r for r in policy["spec"]["ingress"] if "from" not in r]
    assert [p["port"] for r in open_rules for p in r["ports"]] == ["http"]
    app_rules = [
        r for r in policy["spec"]["ingress"] if any(p["port"] == "app" for p in r["ports"])
    ]
    assert app_rules and all(
        f["namespaceSelector"]["matchLabels"] == {"kubernetes.io/metadata.name": "monitoring"}
        for r in app_rules
        for f in r["from"]
    )


@pytest.mark.parametrize("folder", ALL)
def test_autoscaler_and_disruption_budget_aim_at_the_deployment(folder: Path) -> None:
    docs = render(folder)
    deployment = one(docs, "Deployment")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    hpa = one(docs, "HorizontalPodAutoscaler")
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": deployment["metadata"]["name"],
    }
    assert 2 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]
    assert "replicas" not in deployment["spec"], "the autoscaler owns the replica count"
    pdb = one(docs, "PodDisruptionBudget")
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert pdb["spec"]["maxUnavailable"] < hpa["spec"]["minReplicas"]
    for kind in ("Service", "NetworkPolicy"):
        doc = one(docs, kind)
        selector = doc["spec"].get("selector") or doc["spec"]["podSelector"]["matchLabels"]
        assert selector.items() <= labels.items(), kind


@pytest.mark.parametrize("folder", ALL)
def test_this_rendering_agrees_with_kubectl_kustomize(folder: Path) -> None:
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.skip("kubectl is not installed; the rendering above stands alone")
    result = subprocess.run(
        [kubectl, "kustomize", str(folder)], capture_output=True, text=True, timeout=60, check=True
    )
    theirs = {(d["kind"], d["metadata"]["name"]): d for d in yaml.safe_load_all(result.stdout)}
    ours = {(d["kind"], d["metadata"]["name"]): d for d in render(folder)}
    assert theirs == ours
