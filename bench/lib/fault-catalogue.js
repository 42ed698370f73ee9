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
  'created-status-wrong': {
    wrong: 'answers a create 200 where 201 is its only documented success (no 200, 2XX or default)',
    expected: ['status-code-conformance'],
  },
  'required-field-dropped': {
    wrong: 'leaves a required property out of each object its success bodies describe',
    expected: ['response-schema-conformance'],
  },
  'field-type-changed': {
    wrong: 'sends a property the schema types integer/number as a string in success bodies',
    expected: ['response-schema-conformance'],
  },
  'null-for-non-nullable': {
    wrong: 'sends null for a property whose schema does not allow null in success bodies',
    expected: ['response-schema-conformance'],
  },
  'pages-repeat': {
    wrong: 'answers every page after the first (page, offset, cursor…) with the first page',
    expected: ['pagination-followed', 'collection-consistency'],
  },
  'missing-delete-ok': {
    wrong: 'answers DELETE of a missing item 204 where the operation documents 404',
    expected: ['not-found-conformance', 'unknown-id-conformance', 'resource-lifecycle'],
  },
  'not-found-as-empty-200': {
    wrong: 'answers a GET of a missing item 200 {} where the operation documents 404',
    expected: ['not-found-conformance', 'unknown-id-conformance', 'resource-lifecycle'],
  },
  'location-wrong': {
    wrong: "answers a create's Location with the previous item created in the same collection",
    expected: ['location-resolves'],
  },
  'duplicate-ids': {
    wrong: "answers each later create in a collection with the first create's id (and Location)",
    expected: ['id-uniqueness', 'id-permanence', 'resource-round-trip'],
  },
  'patch-wipes': {
    wrong: 'answers a PATCH, then reads of the item, with only the fields the PATCH sent (and the key)',
    expected: ['resource-lifecycle', 'resource-round-trip', 'response-schema-conformance'],
  },
  'header-dropped': {
    wrong: 'leaves out of success answers the headers their response documents as required',
    expected: ['response-headers-conformance'],
  },
  'error-shape-wrong': {
    wrong: 'answers 4xx with {"error": …} where the documented error schema rules that body out',
    expected: ['response-schema-conformance', 'error-body-conformance'],
  },
};
