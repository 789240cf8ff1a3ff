// Interactive API docs (Swagger UI), served from the installed swagger-ui-dist package: no CDN.
// persistAuthorization stays off: on, Swagger UI keeps the bearer token in localStorage with no
// expiry, where any script that ever runs on the admin origin could read it.
export function docsPage(specUrl: string, assets: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>promptd admin API</title><link rel="stylesheet" href="${assets}/swagger-ui.css"></head>
<body><div id="swagger-ui" data-spec-url="${specUrl.replace(/[&"<>]/g, (ch) => `&#${ch.charCodeAt(0)};`)}"></div>
<script src="${assets}/swagger-ui-bundle.js"></script>
<script src="${assets}/docs-init.js"></script>
</body></html>`;
}

/** The page's start-up script, served as a file: the admin CSP allows no inline script. */
export const DOCS_INIT_JS = `window.ui = SwaggerUIBundle({ url: document.getElementById('swagger-ui').dataset.specUrl, dom_id: '#swagger-ui', persistAuthorization: false });\n`;
