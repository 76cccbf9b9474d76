// The UI is a live client of the agent's WebSocket and APIs: nothing to render on the server.
export const ssr = false;
export const prerender = false;
