// The generic faults bench/lib/fault-proxy.js can put in front of any deployment (npm run bench:faults).

/** The faults, by name: what a deployment with it gets wrong, and the checks expected to catch it. */
export const FAULTS = {
  'server-error-for-missing': {
    wrong: 'answers 500 where the correct deployment answers 404',
    expected: ['not-a-server-error'],
  },
  'html-content-type': {
    wrong: 'labels its JSON success answers text/html',
    expected: ['content-type-conformance'],
  },
  'updates-not-kept': {
    wrong: 'answers PUT/PATCH as the correct deployment does, but later reads show the item as before',
    expected: ['resource-lifecycle', 'resource-round-trip'],
  },
  'delete-not-kept': {
    wrong: 'answers DELETE of an existing item 204 without deleting it',
    expected: ['resource-lifecycle'],
  },
  'limit-ignored': {
    wrong: 'ignores limit-like query parameters (limit, per_page, page_size…)',
    expected: ['limit-honoured'],
  },
  'filters-ignored': {
    wrong: 'ignores every query parameter of a GET but its paging ones',
    expected: ['filter-honoured'],
  },
  'invalid-accepted': {
    wrong: 'answers a write the correct deployment refuses (400/422) with 2xx and the body echoed',
    expected: ['negative-data-rejection'],
  },
  'auth-ignored': {
    wrong: 'serves requests without credentials as if they held the real key',
    expected: ['auth-enforced'],
  },
  'create-forgotten': {
    wrong: 'answers a create 201 with its Location, then forgets the item',
    expected: ['location-resolves', 'resource-round-trip'],
  },
  'stale-lists': {
    wrong: 'answers every later GET of a list URL with its first answer',
    expected: ['list-freshness', 'resource-lifecycle'],
  },
  'wrong-item': {
    wrong: 'answers a read of one item with the item read before it in the same collection',
    expected: ['read-returns-requested'],
  },
};
