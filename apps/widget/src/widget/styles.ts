// The widget's stylesheet (inside its shadow root only). `all: initial` stops the page's inherited
// styles; every colour passes WCAG AA; focus is always visible. Logical properties (inset-inline,
// padding-inline) so a right-to-left language (dir="rtl" on the root) mirrors the layout and the corner.
export const CSS = `
:host{all:initial}
*{box-sizing:border-box}
.pw{font-family:var(--pw-font);color:var(--pw-text);font-size:15px;line-height:1.5;background:#fff;
 border-radius:var(--pw-radius);box-shadow:0 4px 24px rgba(0,0,0,.25);position:fixed;z-index:2147483646;padding:20px}
.pw h2{font-size:18px;margin:0 0 8px}
.pw h3{font-size:16px;margin:16px 0 6px}
.pw p{margin:0 0 12px}
.pw a{color:var(--pw-text);text-decoration:underline}
.classic{bottom:20px;max-width:420px;width:calc(100% - 40px)}
.discrete{bottom:16px;max-width:320px;width:calc(100% - 32px);padding:14px;font-size:14px}
.footer,.top{inset-inline:0;border-radius:0;width:100%}
.footer{bottom:0}
.top{top:0}
.left{inset-inline-start:20px}.right{inset-inline-end:20px}
.footer .row,.top .row{display:flex;flex-wrap:wrap;gap:12px;align-items:center;justify-content:space-between;max-width:1100px;margin:0 auto}
.actions{display:flex;flex-wrap:wrap;gap:8px}
button,input,select,textarea{font:inherit}
.btn{background:var(--pw-primary);color:var(--pw-on-primary);border:2px solid var(--pw-primary);border-radius:var(--pw-radius);
 padding:8px 16px;font-weight:600;cursor:pointer;min-width:120px}
.ghost{background:#fff;color:var(--pw-text);border:2px solid var(--pw-text);border-radius:var(--pw-radius);padding:8px 16px;cursor:pointer}
:focus-visible{outline:3px solid #111;outline-offset:2px;box-shadow:0 0 0 5px #fff}
.cat{display:flex;gap:10px;align-items:flex-start;padding:8px 0;border-top:1px solid #ddd}
.cat input{flex:none;width:20px;height:20px;margin:2px 0 0;accent-color:var(--pw-primary)}
.cat small{display:block;color:#374151}
.cookies{margin:4px 0 0;padding-inline-start:18px;font-size:13px;color:#374151}
.overlay{position:fixed;inset:0;background:rgba(0,0,0,.5);z-index:2147483647;display:flex;align-items:center;justify-content:center}
.center{position:relative;max-width:720px;width:calc(100% - 32px);max-height:calc(100% - 32px);overflow:auto}
.head{display:flex;justify-content:space-between;align-items:center;gap:8px}
[role=tablist]{display:flex;flex-wrap:wrap;gap:4px;border-bottom:2px solid #ddd;margin:8px 0 12px}
[role=tab]{background:#fff;color:var(--pw-text);border:0;border-bottom:3px solid transparent;padding:8px 10px;cursor:pointer}
[role=tab][aria-selected=true]{border-bottom-color:var(--pw-primary);font-weight:700}
.field{display:block;margin:0 0 10px}
.field input,.field select,.field textarea{display:block;width:100%;padding:6px;border:1px solid #6b7280;border-radius:4px;color:#111;background:#fff}
dl{margin:0}dt{font-weight:700}dd{margin:0 0 8px}
`;
