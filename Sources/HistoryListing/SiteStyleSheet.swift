/// `Output/site.css`, shared by every page: a responsive card grid, light and dark appearance
/// following the reader's system setting, system fonts only (nothing fetched from anywhere).
enum SiteStyleSheet {
    static let css = """
        :root{color-scheme:light dark;--bg:#f6f5f2;--card:#fff;--ink:#1d1f21;--muted:#5f6368;--line:#e2e0db;--accent:#0a5ed7}
        @media (prefers-color-scheme:dark){:root{--bg:#121416;--card:#1c1f23;--ink:#e6e8ea;--muted:#9aa0a6;--line:#2c3035;--accent:#6cb0ff}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
        a{color:var(--accent)}
        header.site,main,nav,footer{max-width:1400px;margin:0 auto;padding:0 1.25rem}
        header.site{display:flex;flex-wrap:wrap;align-items:baseline;gap:.25rem 1rem;padding-top:1.25rem}
        header.site h1{font-size:1.4rem;margin:0}header.site h1 a{color:inherit;text-decoration:none}
        .muted,.count{color:var(--muted)}
        nav.months{margin-top:.75rem;font-size:.9rem}
        nav.months ul{list-style:none;margin:0;padding:0}
        nav.months li{margin:.15rem 0}nav.months b{display:inline-block;min-width:3.2rem}
        nav.months a{margin-right:.45rem;text-decoration:none}
        main.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(280px,1fr));gap:1.1rem;margin-top:1rem}
        main.grid h2{grid-column:1/-1;font-size:1.05rem;margin:.75rem 0 0;padding-bottom:.2rem;border-bottom:1px solid var(--line)}
        .card{background:var(--card);border-radius:10px;overflow:hidden;box-shadow:0 1px 3px #0002;display:flex;flex-direction:column}
        .card img{display:block;width:100%;height:auto;aspect-ratio:4/3;background:var(--line)}
        .card .body{padding:.55rem .8rem .7rem}
        .card h3{font-size:1rem;margin:0 0 .15rem;overflow-wrap:anywhere}.card h3 a{color:inherit;text-decoration:none}
        .card p{margin:.1rem 0}.when,.meta,.attribution{font-size:.85rem;color:var(--muted)}.attribution{font-size:.75rem}
        .zone{font-size:.75rem}
        .stats span{display:inline-block;margin-right:.7rem;font-variant-numeric:tabular-nums}
        .format{display:inline-block;font-size:.7rem;font-weight:600;letter-spacing:.04em;border:1px solid var(--line);border-radius:4px;padding:0 .3rem;margin-right:.3rem}
        .meta{overflow-wrap:anywhere}
        nav.pager{display:flex;flex-wrap:wrap;gap:.35rem;align-items:center;margin:1.5rem auto}
        nav.pager a,nav.pager span{padding:.25rem .6rem;border-radius:6px;border:1px solid var(--line);text-decoration:none}
        nav.pager span.current{background:var(--accent);color:var(--bg);border-color:var(--accent)}
        nav.pager span.gap{border:0}
        footer{color:var(--muted);font-size:.8rem;padding-bottom:2rem}
        article.detail{max-width:1400px;margin:1rem auto;padding:0 1.25rem}
        article.detail h1{font-size:1.5rem;margin:.25rem 0 .75rem;overflow-wrap:anywhere}
        article.detail img{display:block;max-width:100%;max-height:72vh;width:auto;height:auto;border-radius:10px;background:var(--line)}
        dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1.25rem;margin:1.25rem 0}
        dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere;font-variant-numeric:tabular-nums}
        main.overview figure{margin:1rem 0 1.5rem}main.overview figcaption{margin-top:.35rem;font-variant-numeric:tabular-nums}
        main.overview img{display:block;max-width:100%;width:auto;height:auto;border-radius:10px;background:var(--line)}
        main.grid figure.region{grid-column:1/-1;margin:0}main.grid figure.region img{display:block;max-width:100%;width:auto;height:auto;border-radius:10px}
        .card img.region{aspect-ratio:auto}h2 a.glance{font-size:.8rem;font-weight:400;margin-left:.5rem}
        div.tiles{display:grid;max-width:100%;border-radius:10px;overflow:hidden;background:var(--line)}
        main.grid figure.region div.tiles img,main.overview div.tiles img{display:block;width:100%;max-width:none;height:auto;border-radius:0;background:none}

        """
}
