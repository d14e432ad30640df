// The onboarding widgets' stylesheet (inside their shadow roots only): readable, AA contrast,
// focus always visible, the partner's colour on the main button.
export const CSS = `
:host{all:initial;display:block}
*{box-sizing:border-box}
.ow{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1f2937;font-size:15px;line-height:1.5;
 background:#fff;border:1px solid #d1d5db;border-top:4px solid var(--ow-primary);border-radius:8px;padding:20px;max-width:560px}
h1{font-size:24px;margin:0 0 8px}
h2{font-size:20px;margin:0 0 4px;overflow-wrap:anywhere}
[tabindex="-1"]:focus{outline:none}
h3{font-size:16px;margin:16px 0 6px}
p{margin:0 0 12px}
.by{color:#4b5563;margin:0 0 16px}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:0 12px}
.field{margin:0 0 12px}
label{display:block;font-weight:600;margin:0 0 4px}
input{display:block;width:100%;font:inherit;padding:7px 8px;border:1px solid #6b7280;border-radius:4px;color:#111;background:#fff}
input[aria-invalid=true]{border-color:#b91c1c;border-width:2px}
.hint{color:#4b5563;font-size:13px;margin:2px 0 0}
.error{color:#b91c1c;font-size:14px;margin:4px 0 0}
.alert{color:#b91c1c;font-weight:600}
.btn{font:inherit;font-weight:600;background:var(--ow-primary);color:var(--ow-on-primary);border:2px solid var(--ow-primary);
 border-radius:6px;padding:9px 18px;cursor:pointer}
.btn[disabled]{opacity:.7;cursor:progress}
:focus-visible{outline:3px solid #111;outline-offset:2px}
pre{white-space:pre-wrap;word-break:break-all;background:#f3f4f6;border:1px solid #d1d5db;border-radius:4px;padding:10px;font-size:13px}
ul{margin:0 0 12px;padding-left:20px}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 16px;margin:0 0 12px}dt{font-weight:600}dd{margin:0}
`;
