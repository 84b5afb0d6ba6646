// Draws the reference from openapi.json, a relative URL: the same origin as this page, whichever
// host or PUBLIC_URL it is reached by. A file, not an inline script, so the page's CSP can stay at
// script-src 'self'.

// Every GET is answered to HEAD as well, and the document says so with a HEAD operation beside it
// (headScrape beside getScrape): generated clients and the contract test need both. In the list a
// reader scans, each pair is one entry, the GET; the document's description says HEAD is answered too.
function withoutHeadTwins(operations) {
  const gets = new Set(operations.filter((op) => op.get('method') === 'get').map((op) => op.get('path')));
  return operations.filter((op) => op.get('method') !== 'head' || !gets.has(op.get('path')));
}

function HeadTwinsCollapsed() {
  return {
    statePlugins: {
      spec: {
        wrapSelectors: {
          taggedOperations: (original, system) => (state, ...args) => {
            let tagged = original(state, ...args);
            if (typeof tagged === 'function') tagged = tagged(system);
            return tagged.map((tag) => tag.update('operations', withoutHeadTwins));
          },
        },
      },
    },
  };
}

window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#swagger-ui',
  plugins: [HeadTwinsCollapsed],
  // Links to one operation (#/scrape/createScrape) open it.
  deepLinking: true,
  // The operationId is the method name in a generated client.
  displayOperationId: true,
  // A search box over tags, for a long list of operations.
  filter: true,
  // Swagger UI would otherwise send the document to validator.swagger.io for a badge.
  validatorUrl: null,
  // A key typed into "Authorize" lives only as long as the tab, never in localStorage.
  persistAuthorization: false,
});
