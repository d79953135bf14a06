"""Checks the narrow-float conversion algorithm of compiler/lowering/src/ops/narrow.rs.

The same integer steps as the emitted `arith` code, in numpy, against ml_dtypes (the
reference of ONNX's Cast): decode over every code, encode over every f16 value, 200,000
random f32 values and 200,000 random f32 bit patterns, with and without saturation.
Prints one line per format and mode; any "bad" count other than 0 is a mismatch.

    .venv/bin/python tools/check_narrow_casts.py
"""
import numpy as np, ml_dtypes as md
from onnx import numpy_helper
FMT = {  # name: (E, M, bias, kind, dtype)
 'e4m3fn': (4,3,7,'fn', md.float8_e4m3fn),
 'e4m3fnuz': (4,3,8,'fnuz', md.float8_e4m3fnuz),
 'e5m2': (5,2,15,'ieee', md.float8_e5m2),
 'e5m2fnuz': (5,2,16,'fnuz', md.float8_e5m2fnuz),
 'e2m1': (2,1,1,'none', md.float4_e2m1fn),
}
def maxcode(E,M,kind):
    full=(1<<(E+M))-1
    return {'fn':full-1,'fnuz':full,'ieee':((1<<E)-2)<<M|((1<<M)-1),'none':full}[kind]
def decode(c,E,M,bias,kind):
    c=np.uint32(c)&0xff
    sign=(c>>(E+M))&1; mag=c&((1<<(E+M))-1); e=mag>>M; m=mag&((1<<M)-1)
    normal=(mag<<(23-M))+((127-bias)<<23)
    sub=(np.float32(m)*np.float32(2.0**(1-bias-M))).view(np.uint32)
    bits=np.where(e==0,sub,normal).astype(np.uint32)
    if kind=='ieee': bits=np.where(e==(1<<E)-1, 0x7f800000|(m<<21), bits)
    if kind=='fn': bits=np.where(mag==(1<<(E+M))-1, 0x7fc00000, bits)
    bits=bits|(sign<<31)
    if kind=='fnuz': bits=np.where(c==0x80,0x7fc00000,bits)
    return np.uint32(bits).view(np.float32)
def encode(x,E,M,bias,kind,sat):
    x=np.float32(x); u=x.view(np.uint32).astype(np.int64)
    sign=(u>>31)&1; a=u&0x7fffffff
    isnan=a>0x7f800000
    sh=23-M
    r=a+((1<<(sh-1))-1)+((a>>sh)&1); normal=(r>>sh)-((127-bias)<<M)
    emin=1-bias
    v=np.float32(np.abs(x))*np.float32(2.0**(M-emin))
    sub=(np.float32(v+np.float32(2.0**23))).view(np.uint32).astype(np.int64)-0x4b000000
    code=np.where(a<((127+emin)<<23),sub,normal)
    mc=maxcode(E,M,kind)
    ovf=code>mc
    if sat or kind=='none': ov=mc
    else: ov={'fn':(1<<(E+M))-1,'fnuz':0x80,'ieee':((1<<E)-1)<<M}[kind]
    nanc={'fn':(1<<(E+M))-1,'fnuz':0x80,'ieee':0x7f,'none':None}[kind]
    mag=np.where(ovf,ov,code)
    if kind=='ieee': nanc=0x7e
    if kind=='none': nanc=8
    if nanc is not None: mag=np.where(isnan,nanc,mag)
    if kind=='fnuz':
        res=np.where((mag==0)|(mag==0x80),mag,mag|(sign<<7))
    else:
        res=mag^(sign<<(E+M))
    return res
for name,(E,M,bias,kind,dt) in FMT.items():
    n=1<<(1+E+M)
    codes=np.arange(n,dtype=np.uint8)
    ref=codes.view(dt).astype(np.float32)
    mine=np.array([decode(c,E,M,bias,kind) for c in codes])
    ok=np.all((mine==ref)|(np.isnan(mine)&np.isnan(ref))) and np.all(np.signbit(mine[~np.isnan(mine)])==np.signbit(ref[~np.isnan(ref)]))
    print(name,'decode ok' if ok else 'DECODE BAD')
    # encode: all f16 values + random f32 + specials
    xs=np.concatenate([np.arange(65536,dtype=np.uint16).view(np.float16).astype(np.float32),
        np.random.RandomState(0).randn(200000).astype(np.float32)*np.float32(300),
        (np.random.RandomState(1).randint(0,2**32,200000,dtype=np.uint64).astype(np.uint32)).view(np.float32),
        np.array([np.inf,-np.inf,np.nan,-np.nan,0.0,-0.0,1e30,-1e30],np.float32)])
    for sat in [True,False]:
        if name=='e2m1': refc=xs.astype(dt).view(np.uint8)&0xf if sat else None
        elif sat: refc=numpy_helper.saturate_cast(xs,dt).view(np.uint8)
        else: refc=xs.astype(dt).view(np.uint8)
        if refc is None: continue
        minec=encode(xs,E,M,bias,kind,sat).astype(np.uint8)
        # compare: NaN codes compare by decode
        bad=list(np.nonzero(minec!=refc)[0])
        print(name,'sat',sat,'bad',len(bad), [(xs[i],hex(minec[i]),hex(refc[i])) for i in bad[:5]])
