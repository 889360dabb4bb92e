/// The report's only styling and script, inlined so the file needs nothing else: system
/// fonts (the Noto and DejaVu families cover Arabic, Polish and Italian), a phone-like
/// look for notifications, and a checkbox that hides passing scenarios.
extension HTMLReport {
  static let css = """
    :root{--ok:#1a7f37;--bad:#cf222e;--line:#d0d7de;--dim:#656d76;--card:rgba(250,250,252,.96)}
    *{box-sizing:border-box}
    body{margin:0;font:14px/1.45 system-ui,"Noto Sans","Noto Sans Arabic","DejaVu Sans",sans-serif;color:#1f2328;background:#f6f8fa}
    header{padding:16px 24px;background:#fff;border-bottom:1px solid var(--line)}
    h1{margin:0 0 6px;font-size:22px}
    h2{font-size:17px;margin:0 0 4px}
    nav ol{margin:8px 0 0;padding-left:22px;columns:2}
    nav a{color:inherit;text-decoration:none}
    main{padding:16px 24px;max-width:1200px}
    .chip{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600;color:#fff}
    .chip.pass{background:var(--ok)}.chip.fail{background:var(--bad)}
    .dim{color:var(--dim)}.small{font-size:12px}.bad{color:var(--bad)}
    .filter{margin-left:12px;font-size:13px}
    body.only-failed .passed{display:none}
    .scenario{background:#fff;border:1px solid var(--line);border-radius:10px;padding:14px 18px;margin:0 0 18px}
    .scenario.failed{border-left:5px solid var(--bad)}.scenario.passed{border-left:5px solid var(--ok)}
    .meta{margin:0 0 6px;color:var(--dim)}
    .apps{list-style:none;padding:0;margin:0 0 8px;display:flex;gap:14px;flex-wrap:wrap;font-size:13px}
    .failures pre{background:#ffebe9;border:1px solid #ffcecb;border-radius:6px;padding:8px;white-space:pre-wrap;margin:4px 0}
    .timeline{list-style:none;padding:0;margin:8px 0 0;border-left:2px solid var(--line)}
    .step{display:flex;gap:10px;padding:6px 0 6px 10px;position:relative}
    .step::before{content:"";position:absolute;left:-6px;top:12px;width:10px;height:10px;border-radius:50%;background:var(--line)}
    .step.passed::before{background:var(--ok)}.step.failed::before{background:var(--bad)}
    .step.notRun{opacity:.5}
    .when{flex:0 0 64px;font:12px ui-monospace,monospace;color:var(--dim);padding-top:2px}
    .what{flex:1;min-width:0}
    .head{margin:0}.num{color:var(--dim);font-size:12px}
    .status{font-size:12px;color:var(--ok)}.step.failed .status{color:var(--bad);font-weight:600}.step.notRun .status{color:var(--dim)}
    details{margin:2px 0;font-size:12px}summary{cursor:pointer;color:var(--dim)}
    pre.json{margin:2px 0;padding:6px 8px;background:#f6f8fa;border-radius:6px;overflow-x:auto;font-size:12px}
    .key{color:#0550ae}.str{color:#0a3069}
    mark{background:#ffd8b5;border-radius:3px;outline:1px solid #fb8f44}
    .failure .why{color:var(--bad);margin:4px 0;white-space:pre-wrap}
    .diff{display:grid;grid-template-columns:1fr 1fr;gap:10px}
    .diff pre.json{max-height:520px;overflow:auto}
    .side h4{margin:2px 0;font-size:12px;text-transform:uppercase;letter-spacing:.04em}
    .expected h4{color:var(--ok)}.actual h4{color:var(--bad)}
    .advance{margin:2px 0;color:#8250df}
    .response{margin:3px 0}
    .pill{border:1px solid var(--line);border-radius:10px;padding:0 7px;background:#fff}
    .bubble{display:inline-block;background:#0a84ff;color:#fff;border-radius:14px;padding:1px 10px}
    .callbacks{display:flex;flex-wrap:wrap;gap:8px;margin:4px 0}
    .cb{border:1px dashed var(--line);border-radius:8px;padding:4px 8px;max-width:380px}
    .cb.cb-event{border-style:dotted;font-size:12px}
    .to{margin:0 0 3px}
    .events{list-style:none;margin:0;padding:0}.events details{display:inline-block;margin-left:4px}
    .etype{font-weight:600;color:#8250df}
    .who{background:#1f2328;color:#fff;border-radius:4px;padding:0 5px;font-size:12px}
    .banner{width:340px;background:var(--card);border-radius:16px;padding:9px 12px;box-shadow:0 1px 6px rgba(0,0,0,.18);margin:4px 0}
    .bhead{display:flex;align-items:center;gap:6px;font-size:11px;color:var(--dim);text-transform:uppercase}
    .bhead time{margin-inline-start:auto;text-transform:none}
    .icon,.appicon{display:inline-flex;align-items:center;justify-content:center;border-radius:5px;background:linear-gradient(#5ac8fa,#007aff);color:#fff;font-weight:700}
    .icon{width:18px;height:18px;font-size:11px}
    .tag{background:#8250df;color:#fff;border-radius:4px;padding:0 4px;text-transform:none}
    .btitle{font-weight:600;text-align:start}.bsub{font-weight:500;text-align:start}.bbody{text-align:start}
    .actions{display:flex;flex-direction:column;gap:1px;margin-top:7px;border-radius:10px;overflow:hidden}
    .action{display:block;background:#e9e9ee;padding:6px 10px;color:#0a60ff;text-align:center}
    .action.opt-destructive{color:#ff3b30}.action.opt-foreground{font-weight:600}
    .lock{vertical-align:-1px}
    .textinput{display:flex;gap:6px;margin-top:6px}
    .field{flex:1;border:1px solid #c7c7cc;border-radius:16px;padding:3px 10px;color:#8e8e93;background:#fff;text-align:start}
    .send{background:#0a84ff;color:#fff;border-radius:16px;padding:3px 10px}
    .scheduled .banner{opacity:.75;box-shadow:none;border:1px dashed var(--line)}
    .phones{display:flex;flex-wrap:wrap;gap:12px;margin:6px 0}
    .phone{width:380px;border:10px solid #1c1c1e;border-radius:34px;padding:10px 10px 16px;background:linear-gradient(160deg,#6a85b6,#bac8e0)}
    .statusbar{text-align:center;color:#fff;font-weight:600;font-size:20px;margin-bottom:6px}
    .home{display:flex;align-items:center;gap:8px;margin-bottom:8px;color:#fff;font-size:12px}
    .appicon{position:relative;width:38px;height:38px;border-radius:10px;font-size:18px}
    .badge{position:absolute;top:-7px;right:-9px;min-width:20px;height:20px;border-radius:10px;background:#ff3b30;color:#fff;font-size:12px;line-height:20px;text-align:center;padding:0 5px}
    .stack{margin:0 0 10px}
    .stack .banner{position:relative;z-index:2;margin:0 auto}
    .layer{height:7px;width:322px;margin:-4px auto 0;background:rgba(250,250,252,.7);border-radius:0 0 14px 14px;position:relative;z-index:1}
    .layer+.layer{width:300px;background:rgba(250,250,252,.5)}
    .summary{color:#fff;font-size:12px;text-align:center;margin-top:3px}
    .empty{color:#fff;text-align:center;font-size:12px}
    """

  static let script = """
    document.getElementById('only-failed').addEventListener('change', function (e) {
      document.body.classList.toggle('only-failed', e.target.checked);
    });
    """
}
