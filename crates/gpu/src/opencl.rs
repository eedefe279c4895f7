//! The OpenCL launcher, through `opencl3`, which loads libOpenCL (the ICD loader) at run time:
//! a machine without it builds and runs, and asking for an OpenCL device there is an error
//! naming what to install. Every platform's devices are listed, GPUs and CPUs alike (pocl's CPU
//! device runs the kernel in the tests).

use std::ptr;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_GPU, Device};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_ONLY, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{CL_BLOCKING, cl_uchar, cl_uint, cl_ulong};

use crate::driver::Launcher;
use crate::tasks::{Tables, Task};
use crate::{DeviceInfo, SOURCE};

/// What to install for OpenCL, in the words of the error for a machine without it.
pub const INSTALL: &str = "install an OpenCL driver and the ICD loader (Debian: ocl-icd-libopencl1 with \
     pocl-opencl-icd for the CPU, nvidia-opencl-icd or mesa-opencl-icd for GPUs)";

/// Returns every OpenCL device of every platform, in platform order, as `(info, device id)`.
///
/// # Errors
/// Why none can be listed: no libOpenCL, or no platform.
pub(crate) fn list() -> Result<Vec<(DeviceInfo, opencl3::types::cl_device_id)>, String> {
    let platforms =
        get_platforms().map_err(|e| format!("no OpenCL runtime could be loaded ({e}): {INSTALL}"))?;
    if platforms.is_empty() {
        return Err(format!("OpenCL is installed but has no platform: {INSTALL}"));
    }
    let mut out = Vec::new();
    for platform in platforms {
        let Ok(ids) = platform.get_devices(CL_DEVICE_TYPE_ALL) else { continue };
        let platform_name = platform.name().unwrap_or_default();
        for id in ids {
            let d = Device::new(id);
            let index = out.len();
            let gpu = d.dev_type().is_ok_and(|t| t & CL_DEVICE_TYPE_GPU != 0);
            let info = DeviceInfo {
                api: "opencl",
                index,
                name: d.name().unwrap_or_default().trim().to_string(),
                platform: platform_name.trim().to_string(),
                memory_bytes: d.global_mem_size().unwrap_or(0),
                compute_units: d.max_compute_units().unwrap_or(0),
                gpu,
            };
            out.push((info, id));
        }
    }
    Ok(out)
}

/// An OpenCL device ready to count: its context, queue, compiled kernels and buffers.
pub(crate) struct OpenCl {
    context: Context,
    queue: CommandQueue,
    device: Device,
    /// The kernel without and with NQ_NODES (the second compiled when first asked for).
    kernels: [Option<Kernel>; 2],
    tables: Option<(Buffer<cl_uint>, Buffer<cl_uchar>, cl_uint)>,
    io: Option<Io>,
    /// Work items of one launch (the persistent threads).
    global: usize,
    local: usize,
    launched: usize,
}

/// The task and result buffers, with room for `room` tasks.
struct Io {
    room: usize,
    cols: Buffer<cl_uint>,
    ld: Buffer<cl_uint>,
    rd: Buffer<cl_uint>,
    at: Buffer<cl_uint>,
    next: Buffer<cl_uint>,
    solutions: Buffer<cl_ulong>,
    nodes: Buffer<cl_ulong>,
}

impl OpenCl {
    /// Opens device `id` (described by `info`): a context, a queue and the kernel compiled.
    pub(crate) fn open(info: &DeviceInfo, id: opencl3::types::cl_device_id) -> Result<OpenCl, String> {
        let device = Device::new(id);
        let context = Context::from_device(&device).map_err(|e| format!("cannot create a context: {e}"))?;
        #[allow(deprecated)] // clCreateCommandQueue: OpenCL 1.2 devices (pocl's) have only it.
        let queue =
            CommandQueue::create_default(&context, 0).map_err(|e| format!("cannot create a queue: {e}"))?;
        let units = info.compute_units.max(1) as usize;
        // GPUs: about 1,024 resident threads per compute unit (NVIDIA SMs hold 2,048, AMD CUs
        // 2,560); a CPU device runs work items one after the other in each of its threads.
        let (per_unit, local) = if info.gpu { (1024, 128) } else { (64, 64) };
        let local = local.min(device.max_work_group_size().unwrap_or(local).max(1));
        let mut cl = OpenCl {
            context,
            queue,
            device,
            kernels: [None, None],
            tables: None,
            io: None,
            global: units * per_unit,
            local,
            launched: 0,
        };
        cl.kernel(false)?;
        Ok(cl)
    }

    /// Returns the work items one launch runs at once.
    pub(crate) fn lanes(&self) -> usize {
        self.global
    }

    /// Returns the kernel, counting placements if `nodes`, compiling it on first use.
    fn kernel(&mut self, nodes: bool) -> Result<&Kernel, String> {
        let slot = usize::from(nodes);
        if self.kernels[slot].is_none() {
            let options = if nodes { "-D NQ_NODES" } else { "" };
            let mut program = Program::create_from_source(&self.context, SOURCE)
                .map_err(|e| format!("cannot create the program: {e}"))?;
            if let Err(e) = program.build(&[self.device.id()], options) {
                let log = program.get_build_log(self.device.id()).unwrap_or_default();
                return Err(format!(
                    "the kernel does not compile ({e}): {}",
                    log.trim().replace('\n', " | ")
                ));
            }
            let kernel =
                Kernel::create(&program, "nq_count").map_err(|e| format!("no kernel nq_count: {e}"))?;
            self.kernels[slot] = Some(kernel);
        }
        Ok(self.kernels[slot].as_ref().expect("compiled above"))
    }

    /// Returns a buffer of `len` elements (at least 1) on this context.
    fn buffer<T>(&self, flags: u64, len: usize) -> Result<Buffer<T>, String> {
        // SAFETY: no host pointer is passed (null, without CL_MEM_USE_HOST_PTR or
        // CL_MEM_COPY_HOST_PTR), so the buffer owns its memory.
        unsafe { Buffer::<T>::create(&self.context, flags, len.max(1), ptr::null_mut()) }
            .map_err(|e| format!("cannot allocate {len} elements on the device: {e}"))
    }

    /// Writes `data` into `buffer` and waits for the write.
    fn write<T>(&self, buffer: &mut Buffer<T>, data: &[T]) -> Result<(), String> {
        if data.is_empty() {
            return Ok(());
        }
        // SAFETY: a blocking write of `data.len()` elements into a buffer of at least as many
        // (every buffer here is made for the data written to it); `data` outlives the call.
        unsafe { self.queue.enqueue_write_buffer(buffer, CL_BLOCKING, 0, data, &[]) }
            .map(|_| ())
            .map_err(|e| format!("cannot write to the device: {e}"))
    }
}

impl Launcher for OpenCl {
    fn upload(&mut self, tables: &Tables) -> Result<(), String> {
        let mut attack = self.buffer::<cl_uint>(CL_MEM_READ_ONLY, tables.attack.len())?;
        let mut gap = self.buffer::<cl_uchar>(CL_MEM_READ_ONLY, tables.gap.len())?;
        self.write(&mut attack, &tables.attack)?;
        self.write(&mut gap, &tables.gap)?;
        self.tables = Some((attack, gap, tables.full));
        Ok(())
    }

    fn start(&mut self, tasks: &[Task], nodes: bool) -> Result<(), String> {
        self.kernel(nodes)?;
        let len = tasks.len();
        if self.io.as_ref().is_none_or(|io| io.room < len) {
            let room = len.next_power_of_two();
            self.io = Some(Io {
                room,
                cols: self.buffer(CL_MEM_READ_ONLY, room)?,
                ld: self.buffer(CL_MEM_READ_ONLY, room)?,
                rd: self.buffer(CL_MEM_READ_ONLY, room)?,
                at: self.buffer(CL_MEM_READ_ONLY, room)?,
                next: self.buffer(CL_MEM_READ_WRITE, 1)?,
                solutions: self.buffer(CL_MEM_READ_WRITE, room)?,
                nodes: self.buffer(CL_MEM_READ_WRITE, room)?,
            });
        }
        let columns = |f: fn(&Task) -> u32| tasks.iter().map(f).collect::<Vec<cl_uint>>();
        let mut io = self.io.take().expect("made above");
        let written = (|| {
            self.write(&mut io.cols, &columns(|t| t.cols))?;
            self.write(&mut io.ld, &columns(|t| t.ld))?;
            self.write(&mut io.rd, &columns(|t| t.rd))?;
            self.write(&mut io.at, &columns(|t| t.at))?;
            self.write(&mut io.next, &[0])
        })();
        self.io = Some(io);
        written?;
        let (global, local) = (self.global.min(len.next_multiple_of(self.local)), self.local);
        let tables = self.tables.as_ref().ok_or("no tables uploaded")?;
        let (attack, gap, full) = (&tables.0, &tables.1, tables.2);
        let io = self.io.as_ref().expect("kept above");
        let count = len as cl_uint;
        // The kernel is looked up after the buffers: compiling it borrows `self` mutably.
        let kernel = match &self.kernels[usize::from(nodes)] {
            Some(k) => k,
            None => return Err("the kernel was not compiled".into()),
        };
        // SAFETY: the arguments are those of `nq_count` in kernel.cl, in order and of its
        // types (buffers of cl_uint, cl_uchar and cl_ulong, two cl_uint values); every buffer
        // holds at least `count` tasks or the whole tables, as the kernel reads them.
        unsafe {
            ExecuteKernel::new(kernel)
                .set_arg(&io.cols)
                .set_arg(&io.ld)
                .set_arg(&io.rd)
                .set_arg(&io.at)
                .set_arg(&count)
                .set_arg(attack)
                .set_arg(gap)
                .set_arg(&full)
                .set_arg(&io.next)
                .set_arg(&io.solutions)
                .set_arg(&io.nodes)
                .set_global_work_size(global)
                .set_local_work_size(local)
                .enqueue_nd_range(&self.queue)
        }
        .map_err(|e| format!("cannot launch the kernel: {e}"))?;
        self.queue.flush().map_err(|e| format!("cannot start the kernel: {e}"))?;
        self.launched = len;
        Ok(())
    }

    fn finish(&mut self, solutions: &mut Vec<u64>, placements: &mut Vec<u64>) -> Result<(), String> {
        let len = self.launched;
        solutions.clear();
        solutions.resize(len, 0);
        placements.clear();
        placements.resize(len, 0);
        let io = self.io.as_ref().ok_or("nothing was launched")?;
        if len > 0 {
            // SAFETY: blocking reads of `len` elements from buffers of at least `len`, into
            // vectors of exactly `len`; the queue is in order, so they follow the kernel.
            unsafe {
                self.queue
                    .enqueue_read_buffer(&io.solutions, CL_BLOCKING, 0, solutions, &[])
                    .map_err(|e| format!("the kernel failed or its results cannot be read: {e}"))?;
                self.queue
                    .enqueue_read_buffer(&io.nodes, CL_BLOCKING, 0, placements, &[])
                    .map_err(|e| format!("the kernel failed or its results cannot be read: {e}"))?;
            }
        }
        self.launched = 0;
        Ok(())
    }
}
