// Interactive API docs (Swagger UI), served from the installed swagger-ui-dist package: no CDN.
export function docsPage(specUrl: string, assets: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>promptd admin API</title><link rel="stylesheet" href="${assets}/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="${assets}/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: ${JSON.stringify(specUrl)}, dom_id: '#swagger-ui', persistAuthorization: true });</script>
</body></html>`;
}
