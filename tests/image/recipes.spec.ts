/**
 * The recipes of docs/ci.md that cannot run here (no Docker engine, no GitHub or GitLab runner,
 * no cluster), checked as far as a tool installs: docker-compose validates the compose file
 * against its schema; the others are parsed and their settings compared with the image's.
 */
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { IMAGE, podman, ROOT } from './podman.ts';

const RECIPES = `${ROOT}docs/ci/`;

/** A YAML file as JSON (Debian's python3-yaml: the one YAML parser on every machine here). */
function yaml(file: string): unknown[] {
	const run = spawnSync(
		'python3',
		[
			'-c',
			'import json,sys,yaml; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1], encoding="utf-8")))))',
			`${RECIPES}${file}`
		],
		{ encoding: 'utf8' }
	);
	if (run.status !== 0) throw new Error(`${file}: ${run.stderr}`);
	return JSON.parse(run.stdout);
}

const exposed = () =>
	Object.keys(JSON.parse(podman('image', 'inspect', IMAGE))[0].Config.ExposedPorts)
		.map((p) => Number(p.split('/')[0]))
		.sort();

it('the compose file is valid for docker-compose, and starts the POS once the simulator is healthy', () => {
	const run = spawnSync('docker-compose', ['-f', `${RECIPES}compose.yaml`, 'config'], {
		encoding: 'utf8',
		env: { ...process.env, KDS_TOKEN: '', KDS_ADMIN_TOKEN: '' }
	});
	expect(run.stderr).toBe('');
	expect(run.status).toBe(0);
	const [compose] = yaml('compose.yaml') as {
		services: Record<string, Record<string, unknown>>;
	}[];
	expect(compose.services.pos.depends_on).toEqual({ kds: { condition: 'service_healthy' } });
	expect(compose.services.kds.ports).toEqual(['127.0.0.1:8104:8104']);
	expect(run.stdout).toContain('KDS_TOKEN: compose-pos-token');
});

for (const file of ['github-actions.yml', 'github-actions-build.yml']) {
	it(`${file}: the job publishes every port the image exposes and gives the token by env`, () => {
		const [workflow] = yaml(file) as {
			jobs: { pos: { services: { kds: { env: object; ports: string[]; options: string } } } };
		}[];
		const service = workflow.jobs.pos.services.kds;
		expect(service.ports.map((p) => Number(p.split(':')[1])).sort()).toEqual(exposed());
		expect(Object.keys(service.env).sort()).toEqual(['KDS_ADMIN_TOKEN', 'KDS_TOKEN']);
		// The image's HEALTHCHECK is the check (exec form: the image has no shell for a
		// --health-cmd, which Docker runs with /bin/sh -c); the job only makes it more frequent.
		expect(service.options).not.toContain('--health-cmd');
		expect(service.options).toContain('--health-interval');
		const health = JSON.parse(podman('image', 'inspect', IMAGE))[0].Healthcheck.Test as string[];
		expect(health[0]).toBe('CMD');
		expect(health.join(' ')).toContain('/health');
	});
}

it('the GitLab job names the service kds and gives it the token', () => {
	const [job] = yaml('gitlab-ci.yml') as Record<
		string,
		{
			services: { alias: string; variables: Record<string, string> }[];
			variables: Record<string, string>;
			script: string[];
		}
	>[];
	const pos = job['pos-integration'];
	expect(pos.services[0].alias).toBe('kds');
	expect(pos.services[0].variables.KDS_TOKEN.length).toBeGreaterThanOrEqual(8);
	expect(pos.variables.KDS_SIM_URL).toBe('http://kds:8104');
	expect(pos.script.join('\n')).toContain('os.environ["KDS_SIM_URL"] + "/health"');
});

it('the Kubernetes lab: one replica per simulator, the non-root user, every exposed port in its Service', () => {
	const docs = yaml('kubernetes-lab.yaml') as {
		kind: string;
		spec: unknown;
	}[];
	expect(docs.map((d) => d.kind)).toEqual([
		'Secret',
		'Deployment',
		'PersistentVolumeClaim',
		'Service'
	]);
	const deployment = docs[1].spec as {
		replicas: number;
		template: {
			spec: {
				securityContext: { runAsUser: number };
				containers: { ports: { containerPort: number }[] }[];
			};
		};
	};
	expect(deployment.replicas).toBe(1);
	expect(deployment.template.spec.securityContext.runAsUser).toBe(1000);
	const ports = deployment.template.spec.containers[0].ports.map((p) => p.containerPort).sort();
	expect(ports).toEqual(exposed());
	const service = docs[3].spec as { ports: { port: number }[] };
	expect(service.ports.map((p) => p.port).sort()).toEqual(exposed());
});
