// @needs nothing
// The Kubernetes manifests (deploy/kubernetes, docs/scale-out.md): every overlay
// renders with `kubectl kustomize`, every object it renders validates against the
// Kubernetes schemas (kubernetes-models), and the nodes' StatefulSet is wired as
// the cluster needs it: HOST_ID from the pod name, NODE_URL under the headless
// Service, the shared settings from the Secret, probes on /api/health.
import { beforeAll, describe, expect, it } from "vitest";
import { StatefulSet } from "kubernetes-models/apps/v1/StatefulSet";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { Service } from "kubernetes-models/v1/Service";
import { parseAllDocuments } from "yaml";
import { ensureKubectl, OVERLAYS, render } from "../../deploy/render.mjs";

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec: any;
}

/** The schema of each kind the manifests use; a new kind fails the test until its schema is listed here. */
const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  "apps/v1 StatefulSet": StatefulSet,
  "policy/v1 PodDisruptionBudget": PodDisruptionBudget,
  "v1 Service": Service,
};

async function validate(object: K8sObject): Promise<void> {
  const Model = MODELS[`${object.apiVersion} ${object.kind}`];
  if (!Model) throw new Error(`no schema listed for ${object.apiVersion} ${object.kind}`);
  new Model(object).validate();
}

const rendered = new Map<string, K8sObject[]>();

function objects(overlay: string): K8sObject[] {
  return rendered.get(overlay)!;
}

function find(overlay: string, kind: string, name: string): K8sObject {
  const found = objects(overlay).find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`${overlay}: no ${kind} ${name}`);
  return found;
}

const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

beforeAll(() => {
  ensureKubectl();
  for (const overlay of OVERLAYS) {
    rendered.set(
      overlay,
      parseAllDocuments(render(overlay)).map((doc) => doc.toJS() as K8sObject),
    );
  }
}, 300_000);

describe("Kubernetes manifests", () => {
  it("the validator refuses an object that breaks the schema (so a pass means something)", async () => {
    const node = structuredClone(find("with-postgres", "StatefulSet", "cabin"));
    node.spec.template.spec.containers[0].ports[0].containerPort = "three thousand";
    await expect(validate(node)).rejects.toThrow(/containerPort/);
  });

  it.each(OVERLAYS)("every object of overlay %s validates against the Kubernetes schemas", async (overlay) => {
    expect(objects(overlay).length).toBeGreaterThanOrEqual(4);
    for (const object of objects(overlay)) await validate(object);
  });

  it.each(OVERLAYS)("overlay %s: the nodes' StatefulSet has its identity, address, secrets and probes", (overlay) => {
    const nodes = find(overlay, "StatefulSet", "cabin");
    const pod = nodes.spec.template;
    const container = pod.spec.containers[0];
    const env = Object.fromEntries(container.env.map((e: { name: string }) => [e.name, e]));
    expect(env.HOST_ID.valueFrom.fieldRef.fieldPath).toBe("metadata.name");
    // NODE_URL: the pod's name under the headless Service the StatefulSet names, on the container's port.
    const headless = find(overlay, "Service", nodes.spec.serviceName);
    expect(headless.spec.clusterIP).toBe("None");
    expect(matches(headless.spec.selector, pod.metadata.labels)).toBe(true);
    const port = container.ports.find((p: { name: string }) => p.name === "http").containerPort;
    expect(env.NODE_URL.value).toBe(
      `http://$(HOST_ID).${headless.metadata.name}.$(POD_NAMESPACE).svc.cluster.local:${port}`,
    );
    expect(env.POD_NAMESPACE.valueFrom.fieldRef.fieldPath).toBe("metadata.namespace");
    // Dependent variables expand only when defined before the one that uses them.
    const order = container.env.map((e: { name: string }) => e.name);
    expect(order.indexOf("HOST_ID")).toBeLessThan(order.indexOf("NODE_URL"));
    expect(order.indexOf("POD_NAMESPACE")).toBeLessThan(order.indexOf("NODE_URL"));
    expect(env.DATABASE_URL.valueFrom.secretKeyRef).toEqual({ name: "cabin-secrets", key: "database-url" });
    expect(env.CABIN_SECRET.valueFrom.secretKeyRef).toEqual({ name: "cabin-secrets", key: "cabin-secret" });
    expect(env.PORT.value).toBe(String(port));
    for (const probe of [container.readinessProbe, container.livenessProbe]) {
      expect(probe.httpGet.path).toBe("/api/health");
      expect([port, "http"]).toContain(probe.httpGet.port);
    }
    // Time for a drain on SIGTERM.
    expect(pod.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(60);
    // Clients reach any node; the budget keeps all but one through voluntary disruptions.
    const client = find(overlay, "Service", "cabin");
    expect(client.spec.clusterIP).toBeUndefined();
    expect(matches(client.spec.selector, pod.metadata.labels)).toBe(true);
    const budget = find(overlay, "PodDisruptionBudget", "cabin");
    expect(matches(budget.spec.selector.matchLabels, pod.metadata.labels)).toBe(true);
    expect(budget.spec.maxUnavailable).toBe(1);
  });

  // Also: external-database brings none.
  it("with-postgres brings its database, reached under the Service the secret's URL names", () => {
    const db = find("with-postgres", "StatefulSet", "cabin-postgres");
    const service = find("with-postgres", "Service", "cabin-postgres");
    const container = db.spec.template.spec.containers[0];
    expect(matches(service.spec.selector, db.spec.template.metadata.labels)).toBe(true);
    expect(service.spec.ports[0].port).toBe(5432);
    const password = container.env.find((e: { name: string }) => e.name === "POSTGRES_PASSWORD");
    expect(password.valueFrom.secretKeyRef).toEqual({ name: "cabin-secrets", key: "postgres-password" });
    // The database's pods are not Cabin nodes: no node Service selects them.
    const nodeSelector = find("with-postgres", "Service", "cabin").spec.selector;
    expect(matches(nodeSelector, db.spec.template.metadata.labels)).toBe(false);
    expect(objects("external-database").some((o) => o.metadata.name.includes("postgres"))).toBe(false);
  });

  it("nodes run as a non-root user, except with desktops, which need root in a privileged container", () => {
    for (const overlay of ["with-postgres", "external-database"]) {
      const pod = find(overlay, "StatefulSet", "cabin").spec.template.spec;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(pod.containers[0].securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        capabilities: { drop: ["ALL"] },
      });
    }
    const desktops = find("with-postgres-desktops", "StatefulSet", "cabin").spec.template.spec;
    expect(desktops.securityContext).toMatchObject({ runAsNonRoot: false, runAsUser: 0 });
    expect(desktops.containers[0].securityContext.privileged).toBe(true);
    expect(desktops.containers[0].image).toBe("cabin:desktops");
  });
});
