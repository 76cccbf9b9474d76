/**
 * `kds-sim/testcontainers`: the simulator's image as a Testcontainers for Node module, in the
 * shape of the registry's modules (@testcontainers/postgresql and the like): a container class
 * with the image, its exposed ports and a wait strategy set, `with…` options, and a started
 * container with getters and the simulator's admin helpers (docs/testcontainers.md).
 *
 *   const kds = await new KdsSimContainer().start();
 *   const { host, port } = kds.getScreenEndpoint('kds-1');   // your POS sends orders here
 *   kds.getBaseUrl();   // the integrator API's {base_url}; kds.getToken() its token
 *   await kds.screenJson('kds-1');   // what the screen shows, as JSON
 *   await kds.reset();   // between tests
 *   await kds.stop();
 *
 * `testcontainers` is an optional peer dependency of kds-sim: install it beside (`npm install -D
 * testcontainers`); nothing else of kds-sim imports it.
 */
import { randomBytes } from 'node:crypto';
import { AbstractStartedContainer, GenericContainer, Wait } from 'testcontainers';
import type { StartedTestContainer } from 'testcontainers';
import { faultHelpers, type FaultHelpers } from './faults.ts';
import type { ScreenJson } from './fixtures.ts';

/** The published image of this release (docs/release.md); another: `new KdsSimContainer(image)`. */
export const KDS_SIM_IMAGE = 'ghcr.io/kds-sim/kds-sim:0.1';
/** The HTTP port in the container: the integrator API, the admin API, the UI, /health. */
export const KDS_SIM_HTTP_PORT = 8104;
/** The embedded configuration's screens and their TCP ports in the container (the image EXPOSEs them). */
export const KDS_SIM_SCREENS: ReadonlyArray<{ id: string; port: number }> = [
	{ id: 'kds-1', port: 9104 },
	{ id: 'kds-2', port: 9105 }
];

const secret = (prefix: string) => `${prefix}-${randomBytes(8).toString('hex')}`;

export class KdsSimContainer extends GenericContainer {
	private token = secret('kds-pos');
	private adminToken = secret('kds-admin');
	private hostIp: string | null = null;
	private faultProfiles: string[] = [];

	constructor(image: string = KDS_SIM_IMAGE) {
		super(image);
		// Every port the image EXPOSEs: podman's Docker API reports the others as bindings with no
		// host port, and Testcontainers waits for each binding to get one.
		this.withExposedPorts(KDS_SIM_HTTP_PORT, ...KDS_SIM_SCREENS.map((s) => s.port));
		this.withWaitStrategy(Wait.forHttp('/health', KDS_SIM_HTTP_PORT).forStatusCode(200));
		this.withStartupTimeout(60_000);
	}

	/** The brand's integration token your POS sends (default: a random one; the demo token is refused off loopback). */
	withToken(token: string): this {
		this.token = token;
		return this;
	}

	/** The admin API's token (default: a random one; the helpers send it). */
	withAdminToken(token: string): this {
		this.adminToken = token;
		return this;
	}

	/** Fault profiles on from the start (`flaky-wifi`, `wifi-down@kds-1`; docs/faults.md). */
	withFaultProfiles(...profiles: string[]): this {
		this.faultProfiles = profiles;
		return this;
	}

	/** Publish the ports on this host address only (e.g. `127.0.0.1`); default every interface. */
	withHostIp(ip: string): this {
		this.hostIp = ip;
		return this;
	}

	protected override async beforeContainerCreated(): Promise<void> {
		if (this.hostIp === null) return;
		const bindings = Object.values(this.hostConfig.PortBindings ?? {}) as { HostIp?: string }[][];
		for (const list of bindings) for (const binding of list) binding.HostIp = this.hostIp;
	}

	override async start(): Promise<StartedKdsSimContainer> {
		this.withEnvironment({
			KDS_TOKEN: this.token,
			KDS_ADMIN_TOKEN: this.adminToken,
			KDS_MEMORY: '1',
			...(this.faultProfiles.length ? { KDS_FAULTS: this.faultProfiles.join(',') } : {})
		});
		return new StartedKdsSimContainer(await super.start(), this.token, this.adminToken);
	}
}

export class StartedKdsSimContainer extends AbstractStartedContainer {
	private readonly faults: FaultHelpers;

	constructor(
		started: StartedTestContainer,
		private readonly token: string,
		private readonly adminToken: string
	) {
		super(started);
		this.faults = faultHelpers(this.getBaseUrl(), { 'x-admin-token': adminToken });
	}

	/** The simulator's base URL: the integrator API's `{base_url}`, the UI, the admin API. */
	getBaseUrl(): string {
		return `http://${this.getHost()}:${this.getMappedPort(KDS_SIM_HTTP_PORT)}`;
	}

	/** The brand's `x-integration-token`. */
	getToken(): string {
		return this.token;
	}

	/** The admin API's `x-admin-token`. */
	getAdminToken(): string {
		return this.adminToken;
	}

	/** Where a screen's TCP order interface is reached from here. */
	getScreenEndpoint(screenId: string = KDS_SIM_SCREENS[0].id): { host: string; port: number } {
		const screen = KDS_SIM_SCREENS.find((s) => s.id === screenId);
		if (!screen)
			throw new Error(
				`No screen ${screenId}; the image's screens: ${KDS_SIM_SCREENS.map((s) => s.id).join(', ')}`
			);
		return { host: this.getHost(), port: this.getMappedPort(screen.port) };
	}

	/** Every screen's id and TCP endpoint. */
	getScreens(): Array<{ id: string; tcp: { host: string; port: number } }> {
		return KDS_SIM_SCREENS.map((s) => ({ id: s.id, tcp: this.getScreenEndpoint(s.id) }));
	}

	private async admin(method: string, path: string, body?: object): Promise<unknown> {
		const res = await fetch(`${this.getBaseUrl()}${path}`, {
			method,
			headers: {
				'x-admin-token': this.adminToken,
				...(body ? { 'content-type': 'application/json' } : {})
			},
			body: body ? JSON.stringify(body) : undefined
		});
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
		return text ? JSON.parse(text) : undefined;
	}

	/** Forget the orders of one screen, or of every screen (between tests). */
	async reset(screenId?: string): Promise<void> {
		await this.admin('POST', '/api/admin/reset', screenId ? { screen: screenId } : {});
	}

	/** What a screen shows now, as JSON (GET /api/admin/screens/:id). */
	async screenJson(screenId: string): Promise<ScreenJson> {
		return (await this.admin(
			'GET',
			`/api/admin/screens/${encodeURIComponent(screenId)}`
		)) as ScreenJson;
	}

	addFault: FaultHelpers['addFault'] = (spec) => this.faults.addFault(spec);
	addFaults: FaultHelpers['addFaults'] = (specs) => this.faults.addFaults(specs);
	listFaults: FaultHelpers['listFaults'] = () => this.faults.listFaults();
	removeFault: FaultHelpers['removeFault'] = (id) => this.faults.removeFault(id);
	resetFaults: FaultHelpers['resetFaults'] = () => this.faults.resetFaults();
	faultReport: FaultHelpers['faultReport'] = () => this.faults.faultReport();
}
