// /docs: Swagger UI over the sandbox's own /openapi.json (a file, not an inline script: the pages' CSP allows no inline script).
/* global SwaggerUIBundle */
SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', deepLinking: true });
