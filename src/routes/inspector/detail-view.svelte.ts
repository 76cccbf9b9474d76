/**
 * Which view of a selected message the inspector shows, kept across selections (the next message
 * opens on the same tab) and read by the page, which gives the Fields table a wider pane.
 */
export const detailView: { tab: 'payload' | 'fields' } = $state({ tab: 'payload' });
