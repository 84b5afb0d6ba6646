// Draws the reference from openapi.json, a relative URL: the same origin as this page, whichever
// host or PUBLIC_URL it is reached by. A file, not an inline script, so the page's CSP can stay at
// script-src 'self'.
window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#swagger-ui',
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
