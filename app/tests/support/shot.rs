//! Painting a harness's last frame on the CPU into a PNG: egui's own triangles, blended
//! as its GPU painters would, with no display and no GPU. Shared by the screenshot tests.

use egui::epaint::textures::TexturesDelta;
use egui::epaint::{ClippedPrimitive, ImageData, Primitive, TextureId};
use egui::{Color32, Pos2};
use egui_kittest::{Harness, TestRenderer};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;

/// The textures egui uploads (the font atlas, images), kept on the CPU.
#[derive(Clone, Default)]
pub struct Textures(Rc<RefCell<BTreeMap<TextureId, Texture>>>);

/// Width, height and premultiplied pixels.
type Texture = (usize, usize, Vec<Color32>);

impl TestRenderer for Textures {
    fn handle_delta(&mut self, delta: &mut TexturesDelta) {
        let mut map = self.0.borrow_mut();
        for (id, deltas) in &delta.set {
            for d in deltas {
                let ImageData::Color(image) = &d.image;
                let [w, h] = image.size;
                match d.pos {
                    None => {
                        map.insert(*id, (w, h, image.pixels.clone()));
                    }
                    Some([x0, y0]) => {
                        let Some((tw, th, pixels)) = map.get_mut(id) else {
                            continue;
                        };
                        for y in 0..h.min(th.saturating_sub(y0)) {
                            for x in 0..w.min(tw.saturating_sub(x0)) {
                                pixels[(y0 + y) * *tw + x0 + x] = image.pixels[y * w + x];
                            }
                        }
                    }
                }
            }
        }
        for id in &delta.free {
            map.remove(id);
        }
        delta.clear();
    }
}

/// Bilinear sample of a premultiplied texture at `uv` (0..1).
fn sample(tex: &Texture, uv: Pos2) -> [f32; 4] {
    let (w, h, px) = tex;
    let x = (uv.x * *w as f32 - 0.5).clamp(0.0, (*w - 1) as f32);
    let y = (uv.y * *h as f32 - 0.5).clamp(0.0, (*h - 1) as f32);
    let (x0, y0) = (x.floor() as usize, y.floor() as usize);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let at = |x: usize, y: usize| px[y * w + x].to_array().map(f32::from);
    let (a, b, c, d) = (at(x0, y0), at(x1, y0), at(x0, y1), at(x1, y1));
    std::array::from_fn(|i| {
        (a[i] * (1.0 - fx) + b[i] * fx) * (1.0 - fy) + (c[i] * (1.0 - fx) + d[i] * fx) * fy
    })
}

/// Paints the last frame's triangles into an RGB image, premultiplied-alpha blended in
/// order, each clipped to its rectangle: what egui's GPU painters do, on the CPU.
pub fn paint<S>(h: &Harness<'_, S>, textures: &Textures, zoom: f32) -> (usize, usize, Vec<u8>) {
    let output = h.output();
    let size = h.ctx.content_rect().size() * zoom;
    let (w, ht) = (size.x.round() as usize, size.y.round() as usize);
    let bg = h
        .ctx
        .global_style()
        .visuals
        .panel_fill
        .to_array()
        .map(f32::from);
    let mut canvas: Vec<[f32; 3]> = vec![[bg[0], bg[1], bg[2]]; w * ht];
    let prims: Vec<ClippedPrimitive> = h.ctx.tessellate(output.shapes.clone(), zoom);
    let textures = textures.0.borrow();
    for prim in prims {
        let Primitive::Mesh(mesh) = prim.primitive else {
            continue;
        };
        let Some(tex) = textures.get(&mesh.texture_id) else {
            continue;
        };
        let clip = prim.clip_rect;
        let (cx0, cy0) = ((clip.min.x * zoom).max(0.0), (clip.min.y * zoom).max(0.0));
        let (cx1, cy1) = (
            (clip.max.x * zoom).min(w as f32),
            (clip.max.y * zoom).min(ht as f32),
        );
        for tri in mesh.indices.chunks_exact(3) {
            let v = [0, 1, 2].map(|i| mesh.vertices[tri[i] as usize]);
            let p = v.map(|v| v.pos * zoom);
            let area =
                (p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[2].x - p[0].x) * (p[1].y - p[0].y);
            if area.abs() < 1e-6 {
                continue;
            }
            let x0 = p.iter().map(|q| q.x).fold(cx1, f32::min).max(cx0).floor() as usize;
            let x1 = p.iter().map(|q| q.x).fold(cx0, f32::max).min(cx1).ceil() as usize;
            let y0 = p.iter().map(|q| q.y).fold(cy1, f32::min).max(cy0).floor() as usize;
            let y1 = p.iter().map(|q| q.y).fold(cy0, f32::max).min(cy1).ceil() as usize;
            for y in y0..y1 {
                for x in x0..x1 {
                    let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
                    if px < cx0 || px >= cx1 || py < cy0 || py >= cy1 {
                        continue;
                    }
                    let edge =
                        |a: Pos2, b: Pos2| (b.x - a.x) * (py - a.y) - (px - a.x) * (b.y - a.y);
                    let l =
                        [edge(p[1], p[2]), edge(p[2], p[0]), edge(p[0], p[1])].map(|e| e / area);
                    if l.iter().any(|b| *b < 0.0) {
                        continue;
                    }
                    let uv = Pos2::new(
                        l[0] * v[0].uv.x + l[1] * v[1].uv.x + l[2] * v[2].uv.x,
                        l[0] * v[0].uv.y + l[1] * v[1].uv.y + l[2] * v[2].uv.y,
                    );
                    let texel = sample(tex, uv);
                    let colour: [f32; 4] = std::array::from_fn(|i| {
                        let c = l[0] * f32::from(v[0].color.to_array()[i])
                            + l[1] * f32::from(v[1].color.to_array()[i])
                            + l[2] * f32::from(v[2].color.to_array()[i]);
                        c * texel[i] / 255.0
                    });
                    let keep = 1.0 - colour[3] / 255.0;
                    let dst = &mut canvas[y * w + x];
                    for i in 0..3 {
                        dst[i] = colour[i] + dst[i] * keep;
                    }
                }
            }
        }
    }
    let rgb = canvas
        .iter()
        .flat_map(|c| c.map(|v| v.round().clamp(0.0, 255.0) as u8))
        .collect();
    (w, ht, rgb)
}

pub fn write_png(path: &Path, (w, h, rgb): (usize, usize, Vec<u8>)) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), w as u32, h as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(&rgb).map_err(|e| e.to_string())
}
